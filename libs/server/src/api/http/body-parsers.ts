import { INestApplication } from '@nestjs/common';
import { NextFunction, Request, RequestHandler, Response, raw, urlencoded } from 'express';
import { ADMIN_ROUTE } from '../admin/admin.module';
import { bodyTooLarge, parseJsonBody } from '../input/json-body';
import { BATCH_BODY_LIMIT_BYTES, BODY_LIMIT_BYTES, CALENDAR_BODY_LIMIT_BYTES } from '../input/limits';

/** A request whose body bytes were read and kept as they came; `body` parses them when first read. */
export type BufferedRequest = Request & { rawBody?: Buffer };

const utf8 = new TextDecoder();

/**
 * Reads request bodies into `rawBody` without parsing them: a batch may be up to 1 MiB, anything
 * else 64 KiB (413 beyond, before routing). The signature is checked on these bytes; `body` parses
 * them as JSON when something first reads it, which is a handler's `@Body()`, after the route's
 * guards let the request through. So an unauthenticated request costs no more than reading its
 * bytes, and no interceptor is needed for it (Nest binds an async resource per request for each). Bodies are read whatever their Content-Type, so a client
 * that forgets the header gets a JSON error, not a signature mismatch.
 */
export function useBufferedBodies(app: INestApplication): void {
  // The console's HTML forms: small, and a body read here is not read again below.
  app.use('/admin', urlencoded({ extended: false, limit: '16kb' }));
  app.use('/actions/batch', bufferedBody(BATCH_BODY_LIMIT_BYTES));
  app.use('/calendars', bufferedBody(CALENDAR_BODY_LIMIT_BYTES));
  app.use(bufferedBody(BODY_LIMIT_BYTES));
  app.use(bodyErrorsAsJson);
}

function bufferedBody(limitBytes: number): RequestHandler {
  const read = raw({ limit: limitBytes, type: () => true });
  return (req: BufferedRequest, res: Response, next: NextFunction) => {
    // Bull Board reads its own JSON, behind the admin login. Express matches routes case-insensitively.
    const path = req.path.toLowerCase();
    if (path === ADMIN_ROUTE || path.startsWith(`${ADMIN_ROUTE}/`)) return next();
    // Read already (a batch's larger limit comes first); looking at `body` would parse it.
    if (req.rawBody !== undefined) return next();
    read(req, res, (error?: unknown) => {
      if (Buffer.isBuffer(req.body)) parsedWhenRead(req, req.body);
      next(error);
    });
  };
}

/** Keeps `bytes` as `rawBody`, and makes `body` their JSON (`{}` when empty), parsed once, on first read. */
function parsedWhenRead(req: BufferedRequest, bytes: Buffer): void {
  req.rawBody = bytes;
  let parsed: { value: unknown } | undefined;
  Object.defineProperty(req, 'body', {
    configurable: true,
    enumerable: true,
    get: () => (parsed ??= { value: bytes.length === 0 ? {} : parseJsonBody(utf8.decode(bytes)) }).value,
    set: (value: unknown) => (parsed = { value }),
  });
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
