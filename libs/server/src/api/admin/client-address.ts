import { isIP } from 'node:net';
import { Request } from 'express';
import { ipv6Words } from '@app/outbound';

/** An IPv6 address (no zone) in its one canonical spelling (RFC 5952, as URLs write it): `2001:db8::1`. */
function canonicalIPv6(address: string): string {
  return new URL(`http://[${address}]`).hostname.slice(1, -1);
}

/**
 * The client's address as Express sees it (`TRUST_PROXY` decides whether X-Forwarded-For counts):
 * an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, `::ffff:cb00:7107`) as its IPv4 address, any
 * other IPv6 address in its canonical spelling, so that every spelling of one address counts once.
 */
export function clientAddress(req: Request): string {
  const address = (req.ip ?? req.socket.remoteAddress ?? 'unknown').replace(/%.*$/, '');
  if (isIP(address) !== 6) return address;
  const words = ipv6Words(address.toLowerCase());
  const mapped = words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff;
  return mapped ? [words[6] >> 8, words[6] & 0xff, words[7] >> 8, words[7] & 0xff].join('.') : canonicalIPv6(address);
}

/**
 * What a failed admin login from `address` (as `clientAddress` gives it) counts against, each with
 * its own limit: the address itself and, for IPv6, its /64 as well (`2001:db8:1:2::/64`), since one
 * subscriber usually holds a whole /64 and could otherwise take a fresh address for every guess.
 */
export function loginCountScopes(address: string): string[] {
  if (isIP(address) !== 6) return [address];
  const prefix = ipv6Words(address)
    .slice(0, 4)
    .map((word) => word.toString(16))
    .join(':');
  return [address, `${canonicalIPv6(`${prefix}::`)}/64`];
}
