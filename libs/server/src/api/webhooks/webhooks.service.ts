import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { KeyRing, PunctualConfig } from '@app/config';
import { DeliveryRecord, SubscriptionRecord, TenantScope, WebhooksRepository } from '@app/database';
import { ActionTypeRegistry } from '@app/action-types';
import { EgressPolicy } from '@app/outbound';
import { DeliveryQueue, newSubscriptionSecret, webhookTargetOf, webhookUrlProblem } from '@app/webhooks';
import { InvalidRequestError } from '../errors/action.errors';
import {
  DeliveryNotFoundError,
  DeliveryPendingError,
  TooManySubscriptionsError,
  WebhookNotFoundError,
  WebhooksNotConfiguredError,
} from '../errors/webhook.errors';
import { decodeCursor, encodeCursor } from '../input/list-cursor';
import { CreateWebhookDto } from './dto/create-webhook.dto';

const DEFAULT_PAGE = 50;
/** Each event is written once per subscription that wants it: this bounds what one state change can cost. */
export const MAX_SUBSCRIPTIONS = 100;

/** Webhook subscriptions: their rules, their encrypted secrets, and what was delivered to them. */
@Injectable()
export class WebhooksService implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhooksService.name);
  private readonly cipher: KeyRing;

  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly types: ActionTypeRegistry,
    private readonly egress: EgressPolicy,
    private readonly config: PunctualConfig,
    private readonly queue: DeliveryQueue,
  ) {
    this.cipher = new KeyRing(config.secretKeys);
  }

  /** After a key rotation, secrets made with an older key are encrypted again with the first one; a failure only delays that. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.cipher.enabled) return;
    try {
      const count = await this.webhooks.reencryptSecrets(
        (stored) => this.cipher.isStale(stored),
        (stored) => this.cipher.encrypt(this.cipher.decrypt(stored)),
      );
      if (count > 0) this.logger.log(`Encrypted ${count} subscription secret(s) again with the first SECRET_KEY`);
    } catch (error) {
      this.logger.warn(`Subscription secrets were not encrypted again with the first SECRET_KEY: ${(error as Error).message}`);
    }
  }

  /** Stores a subscription; its secret is returned here only, and kept encrypted. */
  /** Subscribes a URL to the tenant's events; the secret is answered this once. */
  async create(dto: CreateWebhookDto, tenant: string): Promise<{ subscription: SubscriptionRecord; secret: string }> {
    if (!this.cipher.enabled) throw new WebhooksNotConfiguredError();
    const problem = webhookUrlProblem(dto.url, 'url', this.egress, true);
    if (problem) throw new InvalidRequestError(problem);
    if (webhookTargetOf(dto.url)?.kind === 'email' && !this.config.smtp.url) {
      throw new InvalidRequestError('url: mailto: subscriptions need SMTP_URL to be set on the workers and the API');
    }
    const unknown = (dto.actionTypes ?? []).filter((type) => !this.types.has(type));
    if (unknown.length > 0)
      throw new InvalidRequestError(`actionTypes: unknown type ${unknown.join(', ')}; known types are ${this.types.types().join(', ')}`);
    const secret = newSubscriptionSecret();
    const subscription = await this.webhooks.createUnlessFull(MAX_SUBSCRIPTIONS, {
      id: randomUUID(),
      tenantId: tenant,
      url: dto.url,
      events: dto.events,
      actionTypes: dto.actionTypes ?? null,
      description: dto.description ?? null,
      secretCiphertext: this.cipher.encrypt(secret),
    });
    if (!subscription) throw new TooManySubscriptionsError(MAX_SUBSCRIPTIONS);
    return { subscription, secret };
  }

  list(scope: TenantScope): Promise<SubscriptionRecord[]> {
    return this.webhooks.list(scope);
  }

  /** The subscription, if `scope` may see it; every route about its deliveries starts here. */
  async get(id: string, scope: TenantScope): Promise<SubscriptionRecord> {
    const subscription = await this.webhooks.findById(id, scope);
    if (!subscription) throw new WebhookNotFoundError(id);
    return subscription;
  }

  /** Stops deliveries to it at once: its pending deliveries are dropped with it. */
  async remove(id: string, scope: TenantScope): Promise<void> {
    if (!(await this.webhooks.delete(id, scope))) throw new WebhookNotFoundError(id);
  }

  /** Its deliveries, newest first. */
  async deliveries(
    id: string,
    scope: TenantScope,
    limit = DEFAULT_PAGE,
    cursor?: string,
  ): Promise<{ items: DeliveryRecord[]; nextCursor: string | null }> {
    await this.get(id, scope);
    // The list cursor's (time, id) pair, here the delivery's creation time.
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await this.webhooks.deliveries(id, limit + 1, after && { createdAt: after.executionTime, id: after.id });
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit ? encodeCursor({ executionTime: last.createdAt, id: last.id }) : null };
  }

  /** Queues a `webhook.test` event for this subscription alone. */
  async test(id: string, scope: TenantScope): Promise<DeliveryRecord> {
    await this.get(id, scope);
    const delivery = await this.webhooks.addTestEvent(id);
    await this.queue.queueDeliveries([delivery.id]);
    return delivery;
  }

  /** Sends a FAILED or DELIVERED delivery of this subscription again: the same event, so the same `webhook-id`. */
  async redeliver(id: string, scope: TenantScope, deliveryId: string): Promise<DeliveryRecord> {
    await this.get(id, scope);
    const { retentionDays } = this.config.scheduling;
    const redelivered = await this.webhooks.redeliver(id, deliveryId, retentionDays);
    if (redelivered) {
      await this.queue.queueDeliveries([redelivered.id]);
      return redelivered;
    }
    // Not made pending: it was pending then, whatever it is by now (409), or its event is past retention, as good as deleted (404).
    if (await this.webhooks.hasDelivery(id, deliveryId, retentionDays)) throw new DeliveryPendingError(deliveryId);
    throw new DeliveryNotFoundError(id, deliveryId);
  }
}
