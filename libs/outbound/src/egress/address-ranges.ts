import { ipv6Words } from './ip-address';

type Family = 'ipv4' | 'ipv6';

/**
 * A set of IP ranges, matched on the address's bits. `net.BlockList` does the same but builds a
 * `SocketAddress` for every check, which cost more than the rest of a create's destination check.
 * Addresses are as `readingsOf` gives them: dotted IPv4, or valid IPv6 text.
 */
export class AddressRanges {
  private readonly ranges: { family: Family; bits: number[]; prefix: number }[] = [];

  addSubnet(network: string, prefix: number, family: Family): void {
    this.ranges.push({ family, bits: wordsOf(network, family), prefix });
  }

  addAddress(address: string, family: Family): void {
    this.addSubnet(address, family === 'ipv4' ? 32 : 128, family);
  }

  check(address: string, family: Family): boolean {
    const words = wordsOf(address, family);
    return this.ranges.some((range) => range.family === family && samePrefix(range.bits, words, range.prefix));
  }
}

/** An address as 16-bit words: two for IPv4, eight for IPv6. */
function wordsOf(address: string, family: Family): number[] {
  if (family === 'ipv6') return ipv6Words(address);
  const [a, b, c, d] = address.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

function samePrefix(network: number[], address: number[], prefix: number): boolean {
  for (let word = 0; word * 16 < prefix; word += 1) {
    const bits = Math.min(16, prefix - word * 16);
    const mask = (0xffff << (16 - bits)) & 0xffff;
    if ((network[word] & mask) !== (address[word] & mask)) return false;
  }
  return true;
}
