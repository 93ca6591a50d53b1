import { Logger } from '@nestjs/common';
import { LookupAddress } from 'node:dns';
import { DestinationNotAllowedError } from '../client/outbound.errors';
import { HostResolver } from '../client/host-resolver';
import { EgressPolicy } from './egress-policy';

/**
 * The addresses an outbound connection to a host name may use: every address it resolves to that
 * the egress policy allows (all of them when the name itself is allowed). Every kind of outbound
 * call (HTTP, gRPC) connects only to one of these, so a name that resolves to an internal address
 * is refused however it is called.
 */
export class AllowedAddresses {
  private readonly logger = new Logger(AllowedAddresses.name);

  constructor(
    private readonly policy: EgressPolicy,
    private readonly resolver: HostResolver,
  ) {}

  /** @param family 4 or 6 to keep only that family; refuses (`DestinationNotAllowedError`) when no address is left. */
  async of(hostName: string, family: number | string | undefined = undefined): Promise<LookupAddress[]> {
    const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : null;
    const resolved = (await this.resolver.resolve(hostName)).filter((a) => wanted === null || a.family === wanted);
    if (resolved.length === 0) throw Object.assign(new Error(`no address for ${hostName}`), { code: 'ENOTFOUND' });
    if (this.policy.allowsHostName(hostName)) return resolved;
    const allowed = resolved.filter((a) => !this.policy.refusalOfAddress(a.address));
    if (allowed.length > 0) return allowed;
    // The addresses go to the operator's log only: the action's history is readable by API clients.
    this.logger.warn(`Refused ${hostName}: ${resolved.map((a) => this.policy.refusalOfAddress(a.address)).join('; ')}`);
    throw new DestinationNotAllowedError(`${hostName} resolves to no allowed address`);
  }
}
