import { NetworkInterfaceInfo, networkInterfaces } from 'node:os';

/**
 * An address of this machine that is not loopback: where a service bound to every interface
 * answers. IPv4 when there is one, else any other address of a real interface.
 */
export function ownAddress(): { address: string; family: 4 | 6; host: string } {
  const external = Object.values(networkInterfaces()).flatMap((list): NetworkInterfaceInfo[] => (list ?? []).filter((a) => !a.internal));
  const own = external.find((a) => a.family === 'IPv4') ?? external.find((a) => !a.address.startsWith('fe80:')) ?? external[0];
  if (!own) throw new Error('This machine has no network address but loopback');
  return own.family === 'IPv4' ? { address: own.address, family: 4, host: own.address } : { address: own.address, family: 6, host: `[${own.address}]` };
}
