import { Request } from 'express';

/** What `Sec-Fetch-Site` says of a request that a page of another origin made the browser send. */
const OTHER_SITES = new Set(['cross-site', 'same-site']);

/** The origin the request says it comes from: `Origin`, else the origin of `Referer`. */
export function claimedOrigin(req: Request): string | undefined {
  const origin = req.headers.origin;
  if (origin && origin !== 'null') return origin;
  const referer = req.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Why a browser marks this request as sent by a page that is not this service's, or null when
 * nothing says so (a script or a command line sends none of these headers). The service's own
 * origin is the request's Host header, so a proxy in front must pass it through. An opaque origin
 * (`Origin: null`, from a sandboxed frame or a redirect across sites) counts as another site
 * unless a Referer on this host says otherwise.
 */
export function crossSiteReason(req: Request): string | null {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && OTHER_SITES.has(site)) return `the browser says another site sent it (Sec-Fetch-Site: ${site})`;
  const origin = claimedOrigin(req);
  if (origin === undefined) return req.headers.origin === 'null' ? 'it was sent from a page whose origin the browser hides (Origin: null)' : null;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return 'its Origin header is not a URL';
  }
  return host === req.headers.host ? null : 'it was sent from another site';
}
