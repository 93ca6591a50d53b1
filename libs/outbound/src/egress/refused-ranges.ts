import { BlockList } from 'node:net';
import { CanonicalAddress } from './ip-address';

/** Address ranges that outbound calls never reach unless allowed: what each is, and its blocks. */
const REFUSED: readonly { readonly kind: string; readonly ipv4: readonly string[]; readonly ipv6: readonly string[] }[] = [
  { kind: 'an unspecified', ipv4: ['0.0.0.0/8'], ipv6: ['::/128'] },
  { kind: 'a loopback', ipv4: ['127.0.0.0/8'], ipv6: ['::1/128'] },
  // fec0::/10 is the deprecated site-local range: private in all but name.
  { kind: 'a private', ipv4: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], ipv6: ['fc00::/7', 'fec0::/10'] },
  { kind: 'a link-local', ipv4: ['169.254.0.0/16'], ipv6: ['fe80::/10'] },
  { kind: 'a shared (carrier-grade NAT)', ipv4: ['100.64.0.0/10'], ipv6: [] },
  { kind: 'a multicast', ipv4: ['224.0.0.0/4'], ipv6: ['ff00::/8'] },
  { kind: 'the broadcast', ipv4: ['255.255.255.255/32'], ipv6: [] },
];

const RANGES = REFUSED.map(({ kind, ipv4, ipv6 }) => {
  const list = new BlockList();
  for (const block of ipv4) list.addSubnet(block.split('/')[0], Number(block.split('/')[1]), 'ipv4');
  for (const block of ipv6) list.addSubnet(block.split('/')[0], Number(block.split('/')[1]), 'ipv6');
  return { kind, list };
});

/** What kind of internal address this is (`a link-local`), or null for an address on the public internet. */
export function refusedKindOf(address: CanonicalAddress): string | null {
  return RANGES.find(({ list }) => list.check(address.address, address.family))?.kind ?? null;
}
