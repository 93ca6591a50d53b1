import { Injectable } from '@nestjs/common';
import { KeyRing, PunctualConfig } from '@app/config';
import { SigningKeys } from '@app/signature';
import { AttemptResult, ClaimedDelivery } from '@app/database';
import { Clock, storableNote } from '@app/domain';
import { OutboundClient, PermanentOutboundError, SmtpMailer, standardWebhookHeaders } from '@app/outbound';
import { WebhookTarget, signingKeyOf, webhookBody, webhookTargetOf } from '@app/webhooks';

/** How much of a receiver's answer the delivery's `lastError` keeps. */
const ANSWER_EXCERPT = 200;

/** A delivery attempt that can never succeed, whatever the retries: it ends FAILED at once. */
class UndeliverableError extends Error {}

/**
 * Makes one delivery attempt: a signed POST through the outbound client (egress policy, no
 * redirects, timeout) or an email through `SMTP_URL`, and says how it went. Never throws for a
 * receiver's failure; the caller records the result.
 */
@Injectable()
export class WebhookSender {
  private readonly cipher: KeyRing;

  constructor(
    private readonly outbound: OutboundClient,
    private readonly mail: SmtpMailer,
    private readonly config: PunctualConfig,
    private readonly signingKeys: SigningKeys,
    private readonly clock: Clock,
  ) {
    this.cipher = new KeyRing(config.secretKeys);
  }

  /** Sends `delivery` until `signal` stops it; a failure carries the delay before the next attempt, or null when none is left. */
  async send(delivery: ClaimedDelivery, signal: AbortSignal): Promise<AttemptResult> {
    const body = webhookBody(delivery.event);
    const target = webhookTargetOf(delivery.url);
    try {
      if (!target) throw new UndeliverableError(`${delivery.url} is not a webhook URL`);
      return await this.sendTo(target, delivery, body, signal);
    } catch (error) {
      const permanent = error instanceof UndeliverableError || error instanceof PermanentOutboundError;
      return { kind: 'failed', statusCode: null, error: (error as Error).message, retryInMs: permanent ? null : this.retryDelay(delivery) };
    }
  }

  private async sendTo(target: WebhookTarget, delivery: ClaimedDelivery, body: string, signal: AbortSignal): Promise<AttemptResult> {
    if (target.kind === 'email') {
      if (!this.mail.configured) throw new Error('SMTP_URL is not set: email subscriptions cannot be sent');
      const text = JSON.stringify(JSON.parse(body), null, 2);
      // A hanging SMTP server holds a delivery slot no longer than an HTTP receiver may.
      await this.mail.send(
        { to: target.address, subject: emailSubject(delivery.event), text, headers: { 'webhook-id': delivery.event.id } },
        { timeoutMs: this.config.webhooks.timeoutMs, signal },
      );
      return { kind: 'delivered', statusCode: null };
    }
    const signed = standardWebhookHeaders({ id: delivery.event.id, timestamp: this.clock.now(), body }, await this.signingKey(delivery));
    const response = await this.outbound.send({
      url: target.url.toString(),
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Punctual-Webhooks', ...signed },
      body,
      timeoutMs: this.config.webhooks.timeoutMs,
      signal,
    });
    if (response.status >= 200 && response.status < 300) return { kind: 'delivered', statusCode: response.status };
    const excerpt = storableNote(response.body.subarray(0, ANSWER_EXCERPT).toString('utf8'));
    return {
      kind: 'failed',
      statusCode: response.status,
      error: `HTTP ${response.status}${excerpt ? `: ${excerpt}` : ''}`,
      retryInMs: this.retryDelay(delivery),
    };
  }

  /**
   * A subscription's `whsec_` secret; an action's callback is keyed with the secret of the API key
   * that set it, or its tenant's oldest remaining key (a tenant without keys fails the attempt).
   */
  private async signingKey(delivery: ClaimedDelivery): Promise<Buffer> {
    if (delivery.secretCiphertext !== null) return signingKeyOf(this.cipher.decrypt(delivery.secretCiphertext));
    const { secret } = await this.signingKeys.keyFor({ tenantId: delivery.tenantId, signingKeyId: delivery.apiKeyId });
    return Buffer.from(secret, 'utf8');
  }

  /** WEBHOOK_BACKOFF_DELAYS_MS after the 1st, 2nd… failed attempt since the last redelivery; null once they are used up. */
  private retryDelay(delivery: ClaimedDelivery): number | null {
    return this.config.webhooks.backoffDelaysMs[delivery.attempts - delivery.attemptsBeforeRedelivery] ?? null;
  }
}

function emailSubject(event: ClaimedDelivery['event']): string {
  return event.action ? `[Punctual] ${event.type}: ${event.action.action} ${event.action.id}` : `[Punctual] ${event.type}`;
}
