import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { TenantsRepository } from '@app/database';
import { MessagingReach, messagingReach, messagingRefusal } from '@app/domain';
import { ActionTypeRegistry } from './action-type.registry';
import { InvalidActionDataError } from './data-validation.error';
import { messageOf } from './message-transport.decorator';

/**
 * A process reads a tenant's messaging grant at most this often: an operator's change applies on
 * the process that made it at once, and on every other API process and worker within this time.
 */
export const MESSAGING_READ_MS = 2000;
/** Tenants whose grant a process keeps; the least recently used beyond this are read again when next asked. */
const CACHED_TENANTS = 10_000;

/**
 * Who may message what: the one place that judges a MESSAGE against its tenant's messaging grant,
 * for the API at create, batch, preview and PATCH of data (400 naming the field) and for the
 * worker before every send (the grant may have been withdrawn since). Grants are read from
 * Postgres at most once per MESSAGING_READ_MS per tenant and process, the reads of a burst shared.
 */
@Injectable()
export class MessagePermissions {
  private readonly reaches: LRUCache<string, { reach: MessagingReach }>;

  constructor(
    tenants: TenantsRepository,
    private readonly types: ActionTypeRegistry,
  ) {
    this.reaches = new LRUCache({
      max: CACHED_TENANTS,
      ttl: MESSAGING_READ_MS,
      fetchMethod: async (tenant) => ({ reach: messagingReach(tenant, await tenants.messagingOf(tenant)) }),
    });
  }

  /** Why the tenant may not send `pattern` on `transport`; null when it may. */
  async refusal(tenant: string, message: { transport: string; pattern: string }): Promise<string | null> {
    const { reach } = await this.reaches.forceFetch(tenant);
    return messagingRefusal(tenant, reach, message)?.reason ?? null;
  }

  /**
   * Refuses (400, naming the field under `path`) valid `data` of `type` whose message the tenant
   * may not send; data of a type that sends no message passes without a read.
   */
  async assertAllowed(tenant: string, type: string, data: object, path = 'data'): Promise<void> {
    const message = messageOf(this.types.get(type).dataClass, data);
    if (!message) return;
    const { reach } = await this.reaches.forceFetch(tenant);
    const refusal = messagingRefusal(tenant, reach, message);
    if (refusal) throw new InvalidActionDataError([`${path}.${message.fields[refusal.field]}: ${refusal.reason}`]);
  }

  /** Reads the tenant's grant afresh when next asked: this process just changed it. */
  forget(tenant: string): void {
    this.reaches.delete(tenant);
  }
}
