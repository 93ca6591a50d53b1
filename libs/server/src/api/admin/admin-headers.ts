import { NextFunction, Request, Response } from 'express';

/**
 * Headers for every page under /admin, the console's and Bull Board's: no other site may frame
 * them (clickjacking a logged-in operator), and browsers take each answer as the type it says it is.
 */
export function adminHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}
