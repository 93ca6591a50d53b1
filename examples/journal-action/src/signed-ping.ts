import { Module } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import {
  ActionFulfillment,
  Fulfillment,
  FulfillmentContext,
  FulfillmentResult,
  OutboundUrl,
  PermanentFulfillmentError,
  RetryLaterError,
  defineActionType,
} from '@punctual/sdk';
import { OutboundClient, OutboundModule, PermanentOutboundError } from '@punctual/server';

/** The data of a SIGNED_PING action: where to post, and one line of text. */
export class SignedPingData {
  // An http(s) URL; the API refuses an internal destination (http://169.254.169.254/…, localhost) at create.
  @OutboundUrl()
  url: string;

  @IsString()
  @MaxLength(200)
  text: string;
}

export const SIGNED_PING = defineActionType({ type: 'SIGNED_PING', dataClass: SignedPingData });

/**
 * Posts `{ "text": … }` to the action's URL, signed with its tenant's key as HTTP_REQUEST signs,
 * through the outbound client (so the deployment's egress rules hold). A 429 or 503 with
 * `Retry-After: <seconds>` is tried again after that delay; any other failure after the backoff.
 */
@Fulfillment(SIGNED_PING, { maxRetries: 3 })
export class SignedPingFulfillment implements ActionFulfillment<SignedPingData> {
  constructor(private readonly outbound: OutboundClient) {}

  async fulfill(data: SignedPingData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const body = JSON.stringify({ text: data.text });
    const signature = await context.sign(body); // webhook-id, webhook-timestamp, webhook-signature
    const response = await this.outbound
      .send({
        url: data.url,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': context.idempotencyKey, ...signature },
        body,
        timeoutMs: 10_000,
        signal: context.signal, // stops the call when the attempt must stop
      })
      .catch((error: unknown) => {
        // A refused destination can never be reached: the action fails at once. Anything else is retried.
        throw error instanceof PermanentOutboundError ? new PermanentFulfillmentError(`ping ${error.message}`) : error;
      });
    const retryAfter = String(response.headers['retry-after'] ?? '');
    if ((response.status === 429 || response.status === 503) && /^\d+$/.test(retryAfter)) {
      throw new RetryLaterError(Number(retryAfter) * 1000, `ping answered ${response.status}`);
    }
    if (response.status < 200 || response.status >= 300) throw new Error(`ping answered ${response.status}`);
    return { note: `ping answered ${response.status}` };
  }
}

@Module({ imports: [OutboundModule], providers: [SignedPingFulfillment] })
export class SignedPingModule {}
