import { Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { PunctualConfig } from '@app/config';
import { LeaderTask, RetentionRepository } from '@app/database';

const BATCH_SIZE = 1000;
/**
 * Every signed request leaves a nonce for a few minutes, and deleting one cascades to nothing: with
 * these batches a run keeps up with 3,000 requests a second.
 */
const NONCE_BATCH_SIZE = 10_000;
/** Bounds one run; a larger backlog continues on the next run. */
const MAX_BATCHES_PER_RUN = 20;
export const RETENTION_INTERVAL_MS = 60_000;

/**
 * Deletes finished actions and finished webhook deliveries RETENTION_DAYS after they finished,
 * expired idempotency keys and nonces, on the one worker holding the retention lock: a
 * session-level lock, so that the same worker purges run after run.
 */
@Injectable()
export class RetentionLoop extends LeaderTask<Client> {
  constructor(
    private readonly retention: RetentionRepository,
    private readonly config: PunctualConfig,
  ) {
    super({ name: 'Retention purge', intervalMs: RETENTION_INTERVAL_MS }, retention.lock);
  }

  protected lead(): Promise<unknown> {
    return this.purge();
  }

  /** Purges in batches until a batch comes back short, each batch a statement of its own on the pool. Returns what it deleted. */
  async purge(): Promise<{ actions: number; idempotencyKeys: number; webhookEvents: number }> {
    const days = this.config.scheduling.retentionDays;
    const actions = await this.drain(BATCH_SIZE, (size) => this.retention.purgeFinishedActions(days, size));
    const webhookEvents = await this.drain(BATCH_SIZE, (size) => this.retention.purgeWebhookEvents(days, size));
    const idempotencyKeys = await this.drain(BATCH_SIZE, (size) => this.retention.purgeExpiredIdempotencyKeys(size));
    await this.drain(NONCE_BATCH_SIZE, (size) => this.retention.purgeExpiredNonces(size));
    if (actions + idempotencyKeys + webhookEvents > 0) {
      this.logger.log(`Purged ${actions} finished action(s), ${webhookEvents} webhook event(s) and ${idempotencyKeys} expired idempotency key(s)`);
    }
    return { actions, idempotencyKeys, webhookEvents };
  }

  private async drain(batchSize: number, batch: (size: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES_PER_RUN; i += 1) {
      const deleted = await batch(batchSize);
      total += deleted;
      if (deleted < batchSize) break;
    }
    return total;
  }
}
