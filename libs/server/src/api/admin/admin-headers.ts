import helmet, { HelmetOptions } from 'helmet';

/**
 * Helmet's hardening for every page under /admin, the console's and Bull Board's: no other site
 * may frame them (clickjacking a logged-in operator), browsers take each answer as the type it
 * says it is, and a page shares no window or resource with another origin. The console and Bull
 * Board each add a content security policy of their own (below, and the console's headers); HSTS is left to whoever
 * terminates TLS, since it binds the whole host name for a year.
 */
export const ADMIN_HEADERS: HelmetOptions = { contentSecurityPolicy: false, strictTransportSecurity: false, xFrameOptions: { action: 'deny' } };

export const adminHeaders = helmet(ADMIN_HEADERS);

/**
 * Bull Board's pages: its own scripts, styles (inline ones too, which it sets) and images, and
 * nothing from another origin. Its page asks for Google Fonts; this keeps the browser from loading
 * them (it falls back to local fonts), since nothing under /admin loads anything from the internet.
 */
export const bullBoardHeaders = helmet({
  ...ADMIN_HEADERS,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      fontSrc: ["'self'", 'data:'],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
    },
  },
});
