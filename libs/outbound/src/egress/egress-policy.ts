import { BlockList } from 'node:net';
import { AllowedHosts, NO_ALLOWED_HOSTS } from '@app/config';
import { canonicalAddress } from './ip-address';
import { refusedKindOf } from './refused-ranges';

/** Names that resolve to the machine itself by definition (RFC 6761), checked before any lookup. */
const LOOPBACK_NAME = /^(.+\.)?localhost$/;
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

/**
 * Which destinations outbound calls may reach. Addresses on the public internet are allowed;
 * loopback, private, link-local, shared, unspecified, multicast and broadcast addresses are
 * refused unless `OUTBOUND_ALLOWED_HOSTS` lists the name that led there or a range holding the address.
 */
export class EgressPolicy {
  private readonly names: ReadonlySet<string>;
  private readonly ranges = new BlockList();

  constructor(allowed: AllowedHosts = NO_ALLOWED_HOSTS) {
    this.names = new Set(allowed.names);
    for (const range of allowed.ranges) this.ranges.addSubnet(range.network, range.prefix, range.family);
  }

  /** Why a connection to this IP address is refused (`169.254.169.254 is a link-local address`), or null when it is allowed. */
  refusalOfAddress(address: string): string | null {
    const canonical = canonicalAddress(address);
    if (!canonical) return `${address} is not an IP address`;
    const kind = refusedKindOf(canonical);
    if (!kind || this.ranges.check(canonical.address, canonical.family)) return null;
    return `${address} is ${kind} address`;
  }

  /** Whether `hostName` is allowed by name, so that whatever it resolves to may be reached. */
  allowsHostName(hostName: string): boolean {
    return this.names.has(normalizeHostName(hostName));
  }

  /**
   * The check that needs no DNS, made when an action is created or changed: why a URL whose host
   * is an IP literal or a `localhost` name is refused, or null. Other names are judged on the
   * address they resolve to when the call is made.
   */
  refusalOfUrl(url: URL): string | null {
    const host = normalizeHostName(url.hostname);
    if (this.names.has(host)) return null;
    if (canonicalAddress(host)) return this.refusalOfAddress(host);
    if (LOOPBACK_NAME.test(host) && LOOPBACK_ADDRESSES.every((address) => this.refusalOfAddress(address))) {
      return `${host} is a loopback address`;
    }
    return null;
  }
}

/** `[::1]` → `::1`, `Hooks.Example.` → `hooks.example`. */
function normalizeHostName(hostName: string): string {
  return hostName
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}
