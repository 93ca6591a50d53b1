import { isIP } from 'node:net';

/** An IP address in the form the policy checks it: IPv4 forms embedded in IPv6 are unwrapped. */
export interface CanonicalAddress {
  readonly address: string;
  readonly family: 'ipv4' | 'ipv6';
}

/**
 * Returns the address a connection to `address` really reaches, or null when it is not an IP
 * address. `::ffff:169.254.169.254` (IPv4-mapped), `::169.254.169.254` (IPv4-compatible),
 * `::ffff:0:a9fe:a9fe` (IPv4-translated) and `64:ff9b::a9fe:a9fe` (NAT64) all reach
 * 169.254.169.254, so they are judged as that IPv4 address; an IPv6 zone (`fe80::1%eth0`) is dropped.
 */
export function canonicalAddress(address: string): CanonicalAddress | null {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return { address: bare, family: 'ipv4' };
  if (version !== 6) return null;
  const embedded = embeddedIPv4(ipv6Words(bare));
  return embedded ? { address: embedded, family: 'ipv4' } : { address: bare.toLowerCase(), family: 'ipv6' };
}

/** The eight 16-bit words of a valid IPv6 address. */
function ipv6Words(address: string): number[] {
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

function embeddedIPv4(words: number[]): string | null {
  const zeroUpTo = (end: number) => words.slice(0, end).every((w) => w === 0);
  const mapped = zeroUpTo(5) && words[5] === 0xffff;
  const translated = zeroUpTo(4) && words[4] === 0xffff && words[5] === 0;
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  const compatible = zeroUpTo(6) && !(words[6] === 0 && words[7] <= 1);
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (!mapped && !translated && !compatible && !nat64) return null;
  return [words[6] >> 8, words[6] & 0xff, words[7] >> 8, words[7] & 0xff].join('.');
}
