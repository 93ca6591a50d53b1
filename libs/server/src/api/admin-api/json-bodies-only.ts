import { NextFunction, Request, Response } from 'express';

/** The methods of a change that a form on another site could send. */
const FORM_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/** A request that declares no body at all: no Content-Type, and no bytes by Content-Length or Transfer-Encoding. */
function declaresNoBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['content-type'] === undefined && req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0);
}

/**
 * Refuses a change of the admin API whose body is not declared JSON (415), before anything is read:
 * a browser sends `application/json` across sites only after a CORS preflight, which Punctual never
 * answers, so a page elsewhere cannot use an operator's cached login. A change that needs no body
 * (making a key) may come without one; a browser's form always declares a type, and a bodyless
 * request from another page is refused by what the browser says of it (`refuseCrossSite`).
 */
export function jsonBodiesOnly(req: Request, res: Response, next: NextFunction): void {
  if (!FORM_METHODS.has(req.method) || req.is('application/json') || declaresNoBody(req)) return next();
  res.status(415).json({
    statusCode: 415,
    error: 'Unsupported Media Type',
    message: 'The admin API takes JSON bodies only: send Content-Type: application/json, or no body at all',
  });
}
