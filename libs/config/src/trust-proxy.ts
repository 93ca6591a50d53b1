import { parseRange } from './allowed-hosts';

/** What Express's `trust proxy` setting takes: no proxy or any, a number of hops, or the proxies' addresses. */
export type TrustProxy = boolean | number | readonly string[];

/** Express's names for the loopback, link-local and private (unique local) ranges. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY`: `false`, `true` (any peer), a number of proxy hops, or the proxies as IP
 * addresses, CIDR ranges and range names, comma-separated. Each bad entry is one problem.
 */
export function parseTrustProxy(raw: string): { trustProxy: TrustProxy; problems: string[] } {
  const value = raw.trim();
  if (value === 'false') return { trustProxy: false, problems: [] };
  if (value === 'true') return { trustProxy: true, problems: [] };
  if (/^\d{1,3}$/.test(value)) return { trustProxy: Number(value), problems: [] };
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const problems = entries
    .filter((entry) => !RANGE_NAMES.includes(entry) && parseRange(entry) === null)
    .map((entry) => `"${entry}" is not true, false, a number of hops, an IP address, a CIDR range, loopback, linklocal or uniquelocal`);
  if (entries.length === 0) problems.push('must be true, false, a number of hops, or the addresses of the proxies');
  return { trustProxy: entries, problems };
}
