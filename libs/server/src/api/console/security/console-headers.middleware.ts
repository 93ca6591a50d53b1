import { NextFunction, Request, Response } from 'express';

/**
 * Headers for every console response, besides those of every admin page (`adminHeaders`). The
 * content security policy lets a page load only the console's own script and stylesheet, and run
 * no inline script, so even markup that slipped past escaping could not execute; no other site
 * may frame the console; pages with action data are never cached; the Referer stays on this
 * origin (the CSRF check reads it when Origin is absent).
 */
export function consoleHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  );
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
  next();
}
