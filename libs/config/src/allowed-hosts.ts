import { isIP } from 'node:net';

/** A block of IP addresses; a single address is a range of prefix 32 (IPv4) or 128 (IPv6). */
export interface IpRange {
  readonly network: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/**
 * Destinations that outbound calls may reach even though their addresses are internal
 * (loopback, private, link-local…). A name is trusted whatever it resolves to; a range
 * allows the addresses in it, whatever name led there.
 */
export interface AllowedHosts {
  /** Lower-case host names without a trailing dot. */
  readonly names: readonly string[];
  readonly ranges: readonly IpRange[];
}

export const NO_ALLOWED_HOSTS: AllowedHosts = { names: [], ranges: [] };

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Splits `localhost,127.0.0.1,10.1.0.0/16,hooks.internal` into names and ranges; each bad entry is one problem. */
export function parseAllowedHosts(raw: string): { hosts: AllowedHosts; problems: string[] } {
  const names: string[] = [];
  const ranges: IpRange[] = [];
  const problems: string[] = [];
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const range = parseRange(entry);
    const name = entry.toLowerCase().replace(/\.$/, '');
    if (range) ranges.push(range);
    else if (!entry.includes('/') && HOST_NAME.test(name) && !/^[0-9.]+$/.test(name)) names.push(name);
    else problems.push(`"${entry}" is not a host name, an IP address or a CIDR range`);
  }
  return { hosts: { names, ranges }, problems };
}

/** `10.1.0.0/16`, `fd00::/8` or a single address; null for anything else. */
export function parseRange(entry: string): IpRange | null {
  const [address, prefixText, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || address.includes('%')) return null;
  const maxPrefix = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? maxPrefix : Number(prefixText);
  if (prefix > maxPrefix) return null;
  return { network: address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}
