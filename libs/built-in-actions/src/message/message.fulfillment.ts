import { Observable, TimeoutError, firstValueFrom, fromEvent, map, race, timeout } from 'rxjs';
import { MessagePermissions } from '@app/action-types';
import { DEFAULT_MESSAGE_TRANSPORT } from '@app/config';
import { Clock } from '@app/domain';
import { SigningKeys } from '@app/signature';
import { MessageEnvelope, messageSignature } from '@punctual/contract';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, PermanentFulfillmentError } from '@punctual/sdk';
import { MessageTransports } from './message-transports';
import { MessageData } from './message.data';
import { MESSAGE } from './message.type';

const DEFAULT_TIMEOUT_MS = 10_000;
const NOTE_REPLY_BYTES = 1024;

/**
 * Sends the action's message pattern to a sibling app through the `ClientProxy` of its
 * transport, with the action's tenant and a signature made with the key that last set its data
 * (or the tenant's oldest remaining key: `SigningKeys`), which `verifyMessage` checks. With `expectReply` (default) a reply within `timeoutMs` is success and goes into the
 * history note; an error reply, no reply or no connection fails the attempt, retried like any
 * other. Without it the message is emitted, and the transport accepting it is success.
 */
@Fulfillment(MESSAGE)
export class MessageFulfillment implements ActionFulfillment<MessageData> {
  constructor(
    private readonly transports: MessageTransports,
    private readonly permissions: MessagePermissions,
    private readonly signingKeys: SigningKeys,
    private readonly clock: Clock,
  ) {}

  async fulfill(data: MessageData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const name = data.transport ?? DEFAULT_MESSAGE_TRANSPORT;
    const proxy = this.transports.get(name);
    // Checked at create; a transport removed from MESSAGE_TRANSPORTS since then can never be reached.
    if (!proxy) throw new PermanentFulfillmentError(`MESSAGE transport "${name}" is not configured in MESSAGE_TRANSPORTS`);
    // Checked at create too; an operator may have withdrawn the tenant's permission since.
    const refused = await this.permissions.refusal(context.tenantId, { transport: name, pattern: data.pattern });
    if (refused) throw new PermanentFulfillmentError(`MESSAGE not sent: ${refused}`);
    const envelope = await this.envelope(data, context);
    const timeoutMs = data.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const where = `${data.pattern} on transport "${name}"`;
    if (data.expectReply === false) {
      // `emit` completes once the transport took the message.
      await this.await(proxy.emit(data.pattern, envelope), timeoutMs, context.signal, `emitting ${where}`);
      return { note: `emitted ${where}` };
    }
    const reply = await this.await(proxy.send<unknown>(data.pattern, envelope), timeoutMs, context.signal, `sending ${where}`);
    return { note: `reply to ${where}: ${cut(JSON.stringify(reply ?? null))}` };
  }

  /** The message data: what the action says, its tenant, and the signature over its idempotency key, send time and payload. */
  private async envelope(data: MessageData, context: FulfillmentContext): Promise<MessageEnvelope> {
    const { secret } = await this.signingKeys.keyFor(context);
    const payload = data.payload ?? null;
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    return {
      idempotencyKey: context.idempotencyKey,
      actionId: context.actionId,
      occurrence: context.occurrence,
      scheduledFor: context.scheduledAt.toISOString(),
      payload,
      tenant: context.tenantId,
      timestamp,
      signature: messageSignature(secret, context.idempotencyKey, timestamp, payload),
    };
  }

  /** The first value, or an error that says which of: the handler's error, no answer in time, the attempt stopped. */
  private async await<T>(source: Observable<T>, timeoutMs: number, signal: AbortSignal, what: string): Promise<T> {
    if (signal.aborted) throw new Error(`${what}: the attempt was stopped`);
    const stopped = fromEvent(signal, 'abort').pipe(
      map(() => {
        throw new Error(`${what}: the attempt was stopped`);
      }),
    );
    try {
      return await firstValueFrom(race(source.pipe(timeout(timeoutMs)), stopped), { defaultValue: null as T });
    } catch (error) {
      if (error instanceof TimeoutError) throw new Error(`${what}: no answer within ${timeoutMs} ms`, { cause: error });
      if (error instanceof Error) throw new Error(`${what}: ${error.message}`, { cause: error });
      throw new Error(`${what}: the handler failed with ${cut(JSON.stringify(error))}`, { cause: error });
    }
  }
}

/** The first KiB of a reply's JSON, for the history. */
function cut(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= NOTE_REPLY_BYTES ? text : `${bytes.subarray(0, NOTE_REPLY_BYTES).toString('utf8')}…`;
}
