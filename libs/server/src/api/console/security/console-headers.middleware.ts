import { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { ADMIN_HEADERS } from '../../admin/admin-headers';

/**
 * Those of every admin page, and a content security policy that lets a page load only the
 * console's own script and stylesheet, and run no inline script, so even markup that slipped past
 * escaping could not execute; the Referer stays on this origin (the CSRF check reads it when
 * Origin is absent).
 */
const consolePolicy = helmet({
  ...ADMIN_HEADERS,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'same-origin' },
});

/** Headers for every console response: its policy, and pages with action data are never cached. */
export function consoleHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  consolePolicy(req, res, next);
}
