import { AllowedHosts, NO_ALLOWED_HOSTS } from '@app/config';
import { AddressRanges } from './address-ranges';
import { CanonicalAddress, isIpAddress, readingsOf } from './ip-address';
import { OwnAddresses } from './own-addresses';
import { LOOPBACK, refusedKindOf } from './refused-ranges';

/** Names that resolve to the machine itself by definition (RFC 6761), checked before any lookup. */
const LOOPBACK_NAME = /^(.+\.)?localhost$/;
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

/**
 * Which destinations outbound calls may reach. Addresses on the public internet are allowed;
 * loopback, private, link-local, shared, unspecified, multicast, broadcast, documentation,
 * benchmarking, reserved and Teredo addresses, and the addresses of this machine's own
 * interfaces, are refused unless `OUTBOUND_ALLOWED_HOSTS` lists the name that led there or a
 * range holding the address.
 */
export class EgressPolicy {
  private readonly names: ReadonlySet<string>;
  private readonly ranges = new AddressRanges();

  constructor(
    allowed: AllowedHosts = NO_ALLOWED_HOSTS,
    private readonly ownAddresses = new OwnAddresses(),
  ) {
    this.names = new Set(allowed.names);
    for (const range of allowed.ranges) this.ranges.addSubnet(range.network, range.prefix, range.family);
  }

  /** Why a connection to this IP address is refused (`169.254.169.254 is a link-local address`), or null when it is allowed. */
  refusalOfAddress(address: string): string | null {
    const readings = readingsOf(address);
    if (readings.length === 0) return `${address} is not an IP address`;
    for (const reading of readings) {
      // An allowed address needs no classifying: most calls that reach here go to an allowed one.
      if (this.allows(reading)) continue;
      const kind = this.kindOf(reading);
      if (kind) return `${address} is ${kind} address`;
    }
    return null;
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
    if (isIpAddress(host)) return this.refusalOfAddress(host);
    if (LOOPBACK_NAME.test(host) && LOOPBACK_ADDRESSES.every((address) => this.refusalOfAddress(address))) {
      return `${host} is a loopback address`;
    }
    return null;
  }

  /** A loopback address keeps its well-known name; any other address of this machine is named as such. */
  private kindOf(address: CanonicalAddress): string | null {
    const kind = refusedKindOf(address);
    if (kind === LOOPBACK || !this.ownAddresses.includes(address)) return kind;
    return "this machine's own";
  }

  /** A listed range may hold the IPv4 address reached or the IPv6 address that carries it. */
  private allows(address: CanonicalAddress): boolean {
    return this.ranges.check(address.address, address.family) || (address.embeddedIn !== undefined && this.ranges.check(address.embeddedIn, 'ipv6'));
  }
}

/** `[::1]` → `::1`, `Hooks.Example.` → `hooks.example`. */
function normalizeHostName(hostName: string): string {
  return hostName
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}
