/**
 * Header names `data.headers` may not set, in the mixed letter cases clients write them, for the
 * specs that check each is refused with a 400 naming it.
 */
export const IMPERSONATING_HEADERS = [
  'Host',
  'host',
  'Forwarded',
  'X-Forwarded-For',
  'x-forwarded-host',
  'X-FORWARDED-PROTO',
  // what proxies and frameworks read as the client's address, the path or the method
  'X-Real-IP',
  'true-client-ip',
  'X-CLIENT-IP',
  'X-Original-URL',
  'x-rewrite-url',
  'X-HTTP-Method-Override',
] as const;
