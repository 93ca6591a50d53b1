import { INestApplication } from '@nestjs/common';
import { NextFunction, Request, Response, json } from 'express';

type RawBodyRequest = Request & { rawBody?: Buffer };

const keepRawBody = (req: RawBodyRequest, _res: Response, buf: Buffer) => {
  req.rawBody = buf;
};

/**
 * JSON bodies with their raw bytes kept for the signature check. A batch may be up to
 * 1 MiB, everything else 64 KiB. Bodies are read as JSON whatever their Content-Type,
 * so a client that forgets the header gets a JSON error, not a signature mismatch.
 */
export function useJsonBodies(app: INestApplication): void {
  const anyType = () => true;
  app.use('/actions/batch', json({ limit: '1mb', type: anyType, verify: keepRawBody }));
  app.use(json({ limit: '64kb', type: anyType, verify: keepRawBody }));
  app.use(bodyErrorsAsJson);
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/** body-parser reports errors through Express; answer them in the API's JSON error shape. */
function bodyErrorsAsJson(error: BodyParserError, _req: Request, res: Response, next: NextFunction): void {
  if (error.type === 'entity.too.large') {
    res.status(413).json({
      statusCode: 413,
      error: 'Payload Too Large',
      message: `Request body exceeds the limit of ${error.limit} bytes (64 KiB per action, 1 MiB per batch)`,
    });
  } else if (error.type === 'entity.parse.failed') {
    res.status(400).json({ statusCode: 400, error: 'Bad Request', message: `Malformed JSON body: ${error.message}` });
  } else if (error.status && error.status >= 400 && error.status < 500) {
    res.status(error.status).json({ statusCode: error.status, error: 'Bad Request', message: error.message });
  } else {
    next(error);
  }
}
