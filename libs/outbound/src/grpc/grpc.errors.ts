import { status } from '@grpc/grpc-js';
import { OutboundError } from '../client/outbound.errors';

/**
 * A gRPC call or lookup that ended with a status other than OK. The message names the status and
 * the server's details, phrased to follow a description of the call, like every `OutboundError`.
 */
export class GrpcStatusError extends OutboundError {
  constructor(
    readonly code: status,
    readonly details: string,
  ) {
    super(`ended with ${status[code] ?? `status ${code}`}${details ? `: ${details}` : ''}`);
  }
}

/** The target does not serve the service, or the service not the method (or not as a unary method); `field` names which. */
export class UnknownGrpcMethodError extends OutboundError {
  constructor(
    readonly field: 'service' | 'method',
    message: string,
  ) {
    super(message);
  }
}

/** The target cannot say what it serves: no reflection service, or no answer from it. */
export class GrpcReflectionUnavailableError extends OutboundError {}
