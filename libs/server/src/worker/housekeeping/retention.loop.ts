import { Injectable } from '@nestjs/common';
import { Client } from 'pg';
import { PunctualConfig } from '@app/config';
import { PartitionsRepository, PartitionUpkeep, RetentionRepository, WorkersRepository } from '@app/database';
import { LeaderTask } from '@app/runtime';

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
 * How long a stopped or dead worker's declaration is kept at least. Past UNKNOWN_TYPE_GRACE_MS it
 * changes nothing the promoter decides; the floor keeps it for workers configured with a longer grace.
 */
const KEEP_STOPPED_WORKERS_MS = 24 * 3600_000;

/** What one run purged: rows deleted, and the weekly partitions made and dropped. */
export interface Purged {
  actions: number;
  history: number;
  webhookEvents: number;
  idempotencyKeys: number;
  /** Declarations of workers stopped or dead for a day, or twice UNKNOWN_TYPE_GRACE_MS when longer. */
  workers: number;
  partitions: PartitionUpkeep;
}

/**
 * Keeps the weekly partitions of the history and the webhook outbox (made ahead, dropped whole
 * RETENTION_DAYS after their week ended), deletes finished actions RETENTION_DAYS after they
 * finished, what outlived RETENTION_DAYS in the DEFAULT partitions, expired idempotency keys and
 * nonces, and the declarations of workers long stopped, on the one worker holding the retention lock: a session-level lock, so that the same
 * worker purges run after run.
 */
@Injectable()
export class RetentionLoop extends LeaderTask<Client> {
  constructor(
    private readonly retention: RetentionRepository,
    private readonly partitions: PartitionsRepository,
    private readonly workers: WorkersRepository,
    private readonly config: PunctualConfig,
  ) {
    super({ name: 'Retention purge', intervalMs: RETENTION_INTERVAL_MS }, retention.lock);
  }

  protected lead(): Promise<unknown> {
    return this.purge();
  }

  /** Purges in batches until a batch comes back short, each batch a statement of its own on the pool. Returns what it did. */
  async purge(): Promise<Purged> {
    const days = this.config.scheduling.retentionDays;
    const partitions = await this.partitions.upkeep(days);
    const actions = await this.drain(BATCH_SIZE, (size) => this.retention.purgeFinishedActions(days, size));
    const history = await this.drain(BATCH_SIZE, (size) => this.retention.purgeUnpartitionedHistory(days, size));
    const webhookEvents = await this.drain(BATCH_SIZE, (size) => this.retention.purgeUnpartitionedWebhookEvents(days, size));
    const idempotencyKeys = await this.drain(BATCH_SIZE, (size) => this.retention.purgeExpiredIdempotencyKeys(size));
    await this.drain(NONCE_BATCH_SIZE, (size) => this.retention.purgeExpiredNonces(size));
    const workers = await this.workers.prune(Math.max(2 * this.config.scheduling.unknownTypeGraceMs, KEEP_STOPPED_WORKERS_MS));
    if (actions + history + webhookEvents + idempotencyKeys > 0) {
      this.logger.log(
        `Purged ${actions} finished action(s), ${history} history entries and ${webhookEvents} webhook event(s) outside the weekly partitions, and ${idempotencyKeys} expired idempotency key(s)`,
      );
    }
    if (partitions.created > 0 || partitions.dropped.length > 0) {
      this.logger.log(`Made ${partitions.created} weekly partition(s) ahead; dropped ${partitions.dropped.join(', ') || 'none'}`);
    }
    // Every run until it goes: not worth a line each minute.
    for (const { partition, reason } of partitions.kept) this.logger.debug(`Kept ${partition} past retention for now: ${reason}`);
    return { actions, history, webhookEvents, idempotencyKeys, workers, partitions };
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
