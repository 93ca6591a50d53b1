import helmet, { HelmetOptions } from 'helmet';

/**
 * Helmet's hardening for every page under /admin, the console's and Bull Board's: no other site
 * may frame them (clickjacking a logged-in operator), browsers take each answer as the type it
 * says it is, and a page shares no window or resource with another origin. The content security
 * policy is the console's own (Bull Board runs scripts of its own); HSTS is left to whoever
 * terminates TLS, since it binds the whole host name for a year.
 */
export const ADMIN_HEADERS: HelmetOptions = { contentSecurityPolicy: false, strictTransportSecurity: false, xFrameOptions: { action: 'deny' } };

export const adminHeaders = helmet(ADMIN_HEADERS);
