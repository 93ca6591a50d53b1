import { status } from '@grpc/grpc-js';
import { canonicalJson } from '@punctual/contract';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, PermanentFulfillmentError } from '@punctual/sdk';
import { GrpcCaller, GrpcStatusError, OutboundError, PermanentOutboundError, UnknownGrpcMethodError } from '@app/outbound';
import { redactedExcerpt } from '../http-request/call-note';
import { GrpcData } from './grpc.data';
import { GRPC } from './grpc.type';

export const DEFAULT_GRPC_TIMEOUT_MS = 10_000;

/** Statuses that say the call itself is wrong or not permitted: trying it again cannot succeed. */
const PERMANENT_STATUSES = new Set([status.INVALID_ARGUMENT, status.NOT_FOUND, status.UNIMPLEMENTED, status.PERMISSION_DENIED, status.UNAUTHENTICATED]);

/**
 * Calls the action's unary gRPC method through the `GrpcCaller` (egress policy, reflection or the
 * configured protos), with `idempotency-key` and the attempt's Standard Webhooks signature over
 * the canonical JSON of `message` (`context.sign`, as HTTP_REQUEST signs its body) as metadata:
 * the receiver gets protobuf, so it verifies against the message's JSON with sorted keys. OK is
 * success, its reply's JSON (1 KiB) the note; the statuses of `PERMANENT_STATUSES`, a method the
 * target does not serve and a refused destination fail the action at once; any other status, no
 * answer or a timeout fails the attempt, retried by the retry policy. Notes name the target, the
 * method and the status, never a metadata value or the signature.
 */
@Fulfillment(GRPC)
export class GrpcFulfillment implements ActionFulfillment<GrpcData> {
  constructor(private readonly caller: GrpcCaller) {}

  async fulfill(data: GrpcData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const signature = await context.sign(canonicalJson(data.message));
    const metadata = { ...lowerCased(data.metadata), 'idempotency-key': context.idempotencyKey, ...signature };
    const secrets = [...Object.values(data.metadata ?? {}), signature['webhook-signature']];
    const what = `GRPC ${data.service}/${data.method} on ${data.target}`;
    let reply: object;
    try {
      reply = await this.caller.call({
        ...data,
        tls: data.tls ?? false,
        timeoutMs: data.timeoutMs ?? DEFAULT_GRPC_TIMEOUT_MS,
        metadata,
        signal: context.signal,
      });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const message = `${what} ${redactedExcerpt(error.message, secrets)}`;
      const permanent =
        error instanceof PermanentOutboundError ||
        error instanceof UnknownGrpcMethodError ||
        (error instanceof GrpcStatusError && PERMANENT_STATUSES.has(error.code));
      throw permanent ? new PermanentFulfillmentError(message, { cause: error }) : new Error(message, { cause: error });
    }
    return { note: `${what}: OK ${redactedExcerpt(JSON.stringify(reply), secrets)}` };
  }
}

/** gRPC sends metadata names in lower case; the action may spell them in any. */
function lowerCased(metadata: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).map(([name, value]) => [name.toLowerCase(), value]));
}
