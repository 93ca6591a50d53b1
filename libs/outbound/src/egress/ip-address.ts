import { isIP } from 'node:net';

/** An IP address in the form the policy checks it: IPv4 addresses embedded in IPv6 are unwrapped. */
export interface CanonicalAddress {
  readonly address: string;
  readonly family: 'ipv4' | 'ipv6';
  /** The IPv6 address an IPv4 address was unwrapped from, lower-case. */
  readonly embeddedIn?: string;
}

/**
 * The addresses a connection to `address` may really reach; empty when it is not an IP address.
 * IPv6 forms that carry an IPv4 address are read as that IPv4 address: mapped
 * `::ffff:a9fe:a9fe`, compatible `::a9fe:a9fe`, translated `::ffff:0:a9fe:a9fe`, NAT64
 * `64:ff9b::a9fe:a9fe` and 6to4 `2002:a9fe:a9fe::` all reach 169.254.169.254. An address under
 * the local-use NAT64 prefix can have two readings (see `localNat64Readings`). An IPv6 zone
 * (`fe80::1%eth0`) is dropped.
 */
export function readingsOf(address: string): CanonicalAddress[] {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return [{ address: bare, family: 'ipv4' }];
  if (version !== 6) return [];
  const ipv6 = bare.toLowerCase();
  const embedded = embeddedIPv4(ipv6Words(ipv6));
  return embedded.length > 0 ? embedded.map((ipv4) => ({ address: ipv4, family: 'ipv4', embeddedIn: ipv6 })) : [{ address: ipv6, family: 'ipv6' }];
}

/** Whether `address` is an IP address in any form (brackets and zone allowed). */
export function isIpAddress(address: string): boolean {
  return readingsOf(address).length > 0;
}

/** The eight 16-bit words of a valid IPv6 address. */
export function ipv6Words(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a, b, c, d] = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const headWords = head ? head.split(':') : [];
  const restWords = rest === undefined ? [] : rest ? rest.split(':') : [];
  const zeros = Array.from({ length: 8 - headWords.length - restWords.length }, () => '0');
  return [...headWords, ...(rest === undefined ? [] : zeros), ...restWords].map((word) => parseInt(word, 16));
}

/** The IPv4 addresses an IPv6 transition form may carry; empty for any other IPv6 address. */
function embeddedIPv4(words: number[]): string[] {
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  const last32 = ipv4Of(words[6], words[7]);
  if (words[0] === 0x2002) return [ipv4Of(words[1], words[2])]; // 6to4: bits 16–48
  if (words[0] === 0x64 && words[1] === 0xff9b && words[2] === 1) return localNat64Readings(words);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return [last32]; // NAT64 64:ff9b::/96
  if (zero(0, 5) && words[5] === 0xffff) return [last32]; // mapped
  if (zero(0, 4) && words[4] === 0xffff && words[5] === 0) return [last32]; // translated
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  if (zero(0, 6) && !(words[6] === 0 && words[7] <= 1)) return [last32]; // compatible
  return [];
}

/**
 * `64:ff9b:1::/48` is cut by each network at a length of its own (RFC 8215), and RFC 6052 puts the
 * IPv4 address in another place for each length, so an address there is read both ways a
 * translator could: the /96 layout (the last 32 bits, what DNS64 usually hands out) and, when bits
 * 64–71 and 104–127 are zero, the /64 layout (bits 72–103). Either reading may be the one the
 * network uses, so a refused reading refuses the address. The /48 and /56 layouts end in 32 zero
 * bits, so their /96 reading is 0.0.0.0 and they are refused.
 */
function localNat64Readings(words: number[]): string[] {
  const layout96 = ipv4Of(words[6], words[7]);
  const hasLayout64 = words[4] >> 8 === 0 && (words[6] & 0xff) === 0 && words[7] === 0;
  if (!hasLayout64) return [layout96];
  return [layout96, ipv4Of(((words[4] & 0xff) << 8) | (words[5] >> 8), ((words[5] & 0xff) << 8) | (words[6] >> 8))];
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
