import { AddressRanges } from './address-ranges';
import { CanonicalAddress } from './ip-address';

export const LOOPBACK = 'a loopback';

/**
 * Address ranges that outbound calls never reach unless allowed: what each is, and its blocks.
 * The first match names the kind, so a block inside another comes before it (broadcast before reserved).
 */
const REFUSED: readonly { readonly kind: string; readonly ipv4: readonly string[]; readonly ipv6: readonly string[] }[] = [
  { kind: 'an unspecified', ipv4: ['0.0.0.0/8'], ipv6: ['::/128'] },
  { kind: LOOPBACK, ipv4: ['127.0.0.0/8'], ipv6: ['::1/128'] },
  // fec0::/10 is the deprecated site-local range: private in all but name.
  { kind: 'a private', ipv4: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ipv6: ['fc00::/7', 'fec0::/10'] },
  { kind: 'a link-local', ipv4: ['169.254.0.0/16'], ipv6: ['fe80::/10'] },
  { kind: 'a shared (carrier-grade NAT)', ipv4: ['100.64.0.0/10'], ipv6: [] },
  { kind: 'a multicast', ipv4: ['224.0.0.0/4'], ipv6: ['ff00::/8'] },
  { kind: 'the broadcast', ipv4: ['255.255.255.255/32'], ipv6: [] },
  // Not on the public internet: whatever answers there is on the worker's own network.
  { kind: 'a documentation', ipv4: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'], ipv6: ['2001:db8::/32', '3fff::/20'] },
  { kind: 'a benchmarking', ipv4: ['198.18.0.0/15'], ipv6: ['2001:2::/48'] },
  { kind: 'a reserved', ipv4: ['192.0.0.0/24', '240.0.0.0/4'], ipv6: [] },
  // Teredo hides the IPv4 address it reaches (obfuscated, behind a relay): refused whatever it holds.
  { kind: 'a Teredo', ipv4: [], ipv6: ['2001::/32'] },
];

const RANGES = REFUSED.map(({ kind, ipv4, ipv6 }) => {
  const list = new AddressRanges();
  for (const block of ipv4) list.addSubnet(block.split('/')[0], Number(block.split('/')[1]), 'ipv4');
  for (const block of ipv6) list.addSubnet(block.split('/')[0], Number(block.split('/')[1]), 'ipv6');
  return { kind, list };
});

/** What kind of internal address this is (`a link-local`), or null for an address on the public internet. */
export function refusedKindOf(address: CanonicalAddress): string | null {
  return RANGES.find(({ list }) => list.check(address.address, address.family))?.kind ?? null;
}
