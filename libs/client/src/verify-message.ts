import { timingSafeEqual } from 'node:crypto';
import { MessageEnvelope, messageSignature } from '@punctual/contract';

/** How far a message's `timestamp` may be from the receiver's clock, as for signed requests. */
export const MESSAGE_TOLERANCE_SECONDS = 300;

export interface VerifyMessageOptions {
  /** Your tenant's id: a message of any other tenant is refused. */
  tenant: string;
  /**
   * The secrets of your tenant's API keys that may have signed it: the key that last set the
   * action's data, or, once that key is gone, the tenant's oldest remaining key.
   */
  secrets: string | readonly string[];
  /** Seconds the timestamp may be away from now; 300 by default. */
  toleranceSeconds?: number;
  /** The receiver's clock; now by default. */
  now?: Date;
}

/** A received message is not one Punctual signed for this tenant, or not now; `message` says why. */
export class MessageVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageVerificationError';
  }
}

/**
 * Checks the data a `MESSAGE` handler received: that it comes from `tenant`, was sent within the
 * tolerance, and carries a signature made with one of `secrets` over its idempotency key,
 * timestamp and payload (compared in constant time), and whose `actionId` and `occurrence` are
 * the ones that key names. `scheduledFor` and the pattern it came on are not signed: act on the
 * idempotency key, once. Returns the data, typed; throws
 * `MessageVerificationError` naming the reason otherwise.
 */
export function verifyMessage<Payload = unknown>(data: unknown, options: VerifyMessageOptions): MessageEnvelope<Payload> {
  const message = signedFields(data);
  const secrets = typeof options.secrets === 'string' ? [options.secrets] : options.secrets;
  if (secrets.length === 0) throw new MessageVerificationError('No secret to verify the message with');
  if (message.tenant !== options.tenant) {
    throw new MessageVerificationError(`The message is from tenant "${message.tenant}", not "${options.tenant}"`);
  }
  const tolerance = options.toleranceSeconds ?? MESSAGE_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - message.timestamp) > tolerance) {
    throw new MessageVerificationError(`The message's timestamp ${message.timestamp} is more than ${tolerance} s away from now (${now})`);
  }
  const received = Buffer.from(message.signature, 'utf8');
  const matches = secrets.some((secret) => {
    const expected = Buffer.from(messageSignature(secret, message.idempotencyKey, message.timestamp, message.payload), 'utf8');
    return expected.length === received.length && timingSafeEqual(expected, received);
  });
  if (!matches) throw new MessageVerificationError('The message signature matches none of the secrets given');
  // The signature covers the idempotency key, which is `<actionId>:<occurrence>`: the two fields must say the same.
  const { actionId, occurrence } = data as Record<string, unknown>;
  if (message.idempotencyKey !== `${String(actionId)}:${String(occurrence)}`) {
    throw new MessageVerificationError(`The message's actionId and occurrence do not match its signed idempotency key ${message.idempotencyKey}`);
  }
  return data as MessageEnvelope<Payload>;
}

/** The fields the signature covers, or an error naming the one that is missing or malformed. */
function signedFields(data: unknown): Pick<MessageEnvelope, 'idempotencyKey' | 'payload' | 'tenant' | 'timestamp' | 'signature'> {
  if (typeof data !== 'object' || data === null) throw new MessageVerificationError('The message data is not an object');
  const { idempotencyKey, payload, tenant, timestamp, signature } = data as Record<string, unknown>;
  const malformed = (field: string) =>
    new MessageVerificationError(`The message's "${field}" is missing or malformed: it is not a signed Punctual message`);
  if (typeof idempotencyKey !== 'string') throw malformed('idempotencyKey');
  if (!('payload' in data)) throw malformed('payload');
  if (typeof tenant !== 'string') throw malformed('tenant');
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp)) throw malformed('timestamp');
  if (typeof signature !== 'string' || !signature.startsWith('v1,')) throw malformed('signature');
  return { idempotencyKey, payload, tenant, timestamp, signature };
}
