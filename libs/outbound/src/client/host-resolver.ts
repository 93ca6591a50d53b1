import { Injectable } from '@nestjs/common';
import { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';

/**
 * Resolves a host name to every address it has, before the egress policy picks which of them
 * may be connected to. A seam: tests replace it to make a name resolve to a refused address.
 */
@Injectable()
export class HostResolver {
  resolve(hostName: string): Promise<LookupAddress[]> {
    return lookup(hostName, { all: true });
  }
}
