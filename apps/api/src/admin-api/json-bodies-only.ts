import { NextFunction, Request, Response } from 'express';

/** The methods of a change that a form on another site could send. */
const FORM_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/**
 * Refuses a change of the admin API whose body is not declared JSON (415), before anything is read:
 * a browser sends `application/json` across sites only after a CORS preflight, which Punctual never
 * answers, so a page elsewhere cannot use an operator's cached login.
 */
export function jsonBodiesOnly(req: Request, res: Response, next: NextFunction): void {
  if (!FORM_METHODS.has(req.method) || req.is('application/json')) return next();
  res.status(415).json({
    statusCode: 415,
    error: 'Unsupported Media Type',
    message: 'The admin API takes JSON bodies only: send Content-Type: application/json (with {} for an empty body)',
  });
}
