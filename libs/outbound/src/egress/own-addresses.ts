import { networkInterfaces } from 'node:os';
import { performance } from 'node:perf_hooks';
import { AddressRanges } from './address-ranges';
import { CanonicalAddress, readingsOf } from './ip-address';

/** Interfaces come and go (DHCP, containers, VPNs), so their addresses are read again after this long. */
const MAX_AGE_MS = 5_000;

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((a) => a.address));
}

/**
 * The addresses of this machine's network interfaces. Whatever listens on them (a metrics port, a
 * database bound to every interface) is as internal as loopback, whatever range the address is in.
 */
export class OwnAddresses {
  private list = new AddressRanges();
  private readAt = -Infinity;

  /** @param read the interfaces' addresses; tests give a fixed list. */
  constructor(private readonly read: () => readonly string[] = interfaceAddresses) {}

  includes(address: CanonicalAddress): boolean {
    if (performance.now() - this.readAt >= MAX_AGE_MS) this.refresh();
    return this.list.check(address.address, address.family);
  }

  private refresh(): void {
    const list = new AddressRanges();
    for (const reading of this.read().flatMap(readingsOf)) list.addAddress(reading.address, reading.family);
    this.list = list;
    this.readAt = performance.now();
  }
}
