import { INestApplication } from '@nestjs/common';
import { NextFunction, Request, Response, json, urlencoded } from 'express';
import { jsonShapeProblems } from '../input/json-shape';
import { BATCH_BODY_LIMIT_BYTES, BODY_LIMIT_BYTES, bodyTooLargeMessage } from '../input/limits';

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
  // The console's HTML forms; a body read here is not read again as JSON below.
  app.use('/admin', urlencoded({ extended: false, limit: '16kb' }));
  app.use('/actions/batch', json({ limit: BATCH_BODY_LIMIT_BYTES, type: anyType, verify: keepRawBody }));
  app.use(json({ limit: BODY_LIMIT_BYTES, type: anyType, verify: keepRawBody }));
  app.use(bodyErrorsAsJson);
  app.use(refuseUnacceptableJson);
}

/** A body that parsed but cannot be accepted as it is (see `jsonShapeProblems`) is answered 400 before any route sees it. */
function refuseUnacceptableJson(req: Request, res: Response, next: NextFunction): void {
  const problems = req.body === undefined ? [] : jsonShapeProblems(req.body);
  if (problems.length === 0) return next();
  res.status(400).json({ statusCode: 400, error: 'Bad Request', message: problems });
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
      message: bodyTooLargeMessage(error.limit ?? BODY_LIMIT_BYTES),
    });
  } else if (error.type === 'entity.parse.failed') {
    res.status(400).json({ statusCode: 400, error: 'Bad Request', message: `Malformed JSON body: ${error.message}` });
  } else if (error.status && error.status >= 400 && error.status < 500) {
    res.status(error.status).json({ statusCode: error.status, error: 'Bad Request', message: error.message });
  } else {
    next(error);
  }
}
