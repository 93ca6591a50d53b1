import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { InvalidActionDataError } from '@app/action-types';
import { EgressPolicy, GrpcCaller, GrpcMethod, UnknownGrpcMethodError, grpcTargetUrl, parseGrpcTarget } from '@app/outbound';
import { GrpcData } from './grpc.data';
import { GRPC } from './grpc.type';

/**
 * How long one request waits for targets' reflection services, all of its items together, before
 * accepting what is left unchecked: a batch of a thousand silent targets costs this once, not a
 * thousand times.
 */
export const GRPC_CHECK_TIMEOUT_MS = 2_000;

/** The moment (`performance.now()`) a request stops waiting for targets' reflection services. */
export type TargetCheckDeadline = number;

/** The deadline of a request whose checks start now. */
export function targetCheckDeadline(): TargetCheckDeadline {
  return performance.now() + GRPC_CHECK_TIMEOUT_MS;
}
/** Lookups running at once in one API process; past it, actions are accepted unchecked. */
const MAX_CHECKS_IN_FLIGHT = 8;
/** A target that could not be asked is not asked again for this long. */
const UNASKABLE_TTL_MS = 60_000;

/**
 * What the API checks of GRPC data beyond its schema, before storing it: the target against the
 * egress policy (as `@OutboundUrl()` fields are: IP literals and `localhost`, without DNS), then,
 * only for an allowed destination, whether the target serves the service and the method (400
 * naming them). A target that cannot be asked in `GRPC_CHECK_TIMEOUT_MS` (unreachable, no
 * reflection, resolving to a refused address) is accepted: the worker judges it at every call, so
 * the answers never tell a tenant more about a host than a call to it would.
 */
@Injectable()
export class GrpcTargetCheck {
  private inFlight = 0;
  private readonly unaskable = new LRUCache<string, true>({ max: 1000, ttl: UNASKABLE_TTL_MS });

  constructor(
    private readonly egress: EgressPolicy,
    private readonly caller: GrpcCaller,
  ) {}

  /**
   * Refuses (400, naming the field under `path`) valid data of `type` that cannot be called; other
   * types pass at once. Waits for the target until `deadline` at most, the request's for all its items.
   */
  async assertCallable(type: string, data: object, path = 'data', deadline = targetCheckDeadline()): Promise<void> {
    if (type !== GRPC.type) return;
    const { target, service, method, message, tls = false } = data as GrpcData;
    const refusal = this.egress.refusalOfUrl(grpcTargetUrl(parseGrpcTarget(target)!));
    if (refusal) throw new InvalidActionDataError([`${path}.target: the destination is not allowed (${refusal})`]);
    const key = `${tls ? 'tls' : 'plain'}|${target}`;
    const timeoutMs = Math.floor(deadline - performance.now());
    if (timeoutMs <= 0 || this.unaskable.has(key) || this.inFlight >= MAX_CHECKS_IN_FLIGHT) return;
    this.inFlight += 1;
    let found: GrpcMethod;
    try {
      found = await this.caller.lookUp({ target, service, method, tls, timeoutMs });
    } catch (error) {
      if (error instanceof UnknownGrpcMethodError) throw new InvalidActionDataError([`${path}.${error.field}: ${error.message}`]);
      this.unaskable.set(key, true);
      return;
    } finally {
      this.inFlight -= 1;
    }
    const unknown = found.unknownFields(message);
    if (unknown.length > 0) {
      throw new InvalidActionDataError(unknown.map((field) => `${path}.message.${field}: the request type of ${service}/${method} has no such field`));
    }
    // What the worker would refuse to send (a list where one value goes, say), refused now rather than at the call.
    try {
      found.serialize(message);
    } catch (error) {
      throw new InvalidActionDataError([`${path}.message: does not fit the request type of ${service}/${method} (${(error as Error).message})`]);
    }
  }
}
