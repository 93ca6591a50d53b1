import { INestApplication } from '@nestjs/common';
import { NextFunction, Request, RequestHandler, Response, raw, urlencoded } from 'express';
import { ADMIN_ROUTE } from '../admin/admin.module';
import { bodyTooLarge } from '../input/json-body';
import { BATCH_BODY_LIMIT_BYTES, BODY_LIMIT_BYTES } from '../input/limits';

/** A request whose body bytes were read and kept as they came, not yet parsed (`JsonBodyInterceptor` does that). */
export type BufferedRequest = Request & { rawBody?: Buffer };

/**
 * Reads request bodies into `rawBody` without parsing them: a batch may be up to 1 MiB, anything
 * else 64 KiB (413 beyond, before routing). The signature is checked on these bytes, and only a
 * request that passed its route's guards has them parsed as JSON, so an unauthenticated request
 * costs no more than reading its bytes. Bodies are read whatever their Content-Type, so a client
 * that forgets the header gets a JSON error, not a signature mismatch.
 */
export function useBufferedBodies(app: INestApplication): void {
  // The console's HTML forms: small, and a body read here is not read again below.
  app.use('/admin', urlencoded({ extended: false, limit: '16kb' }));
  app.use('/actions/batch', bufferedBody(BATCH_BODY_LIMIT_BYTES));
  app.use(bufferedBody(BODY_LIMIT_BYTES));
  app.use(bodyErrorsAsJson);
}

function bufferedBody(limitBytes: number): RequestHandler {
  const read = raw({ limit: limitBytes, type: () => true });
  return (req: BufferedRequest, res: Response, next: NextFunction) => {
    // Bull Board reads its own JSON, behind the admin login. Express matches routes case-insensitively.
    const path = req.path.toLowerCase();
    if (path === ADMIN_ROUTE || path.startsWith(`${ADMIN_ROUTE}/`)) return next();
    read(req, res, (error?: unknown) => {
      if (Buffer.isBuffer(req.body)) {
        req.rawBody = req.body;
        req.body = undefined;
      }
      next(error);
    });
  };
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/** body-parser reports errors through Express; answer them in the API's JSON error shape. */
function bodyErrorsAsJson(error: BodyParserError, _req: Request, res: Response, next: NextFunction): void {
  if (error.type === 'entity.too.large') {
    const refusal = bodyTooLarge(error.limit ?? BODY_LIMIT_BYTES);
    res.status(refusal.getStatus()).json(refusal.getResponse());
  } else if (error.status && error.status >= 400 && error.status < 500) {
    res.status(error.status).json({ statusCode: error.status, error: 'Bad Request', message: error.message });
  } else {
    next(error);
  }
}
