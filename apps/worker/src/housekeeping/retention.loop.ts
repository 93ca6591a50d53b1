import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { RetentionRepository } from '@app/database';
import { PeriodicTask } from './periodic-task';

const BATCH_SIZE = 1000;
/** Bounds one run; a larger backlog continues on the next run. */
const MAX_BATCHES_PER_RUN = 20;
export const RETENTION_INTERVAL_MS = 60_000;

/** Deletes finished actions RETENTION_DAYS after they finished, expired idempotency keys and nonces. */
@Injectable()
export class RetentionLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionLoop.name);
  private readonly task: PeriodicTask;

  constructor(
    private readonly retention: RetentionRepository,
    private readonly config: PunctualConfig,
  ) {
    this.task = new PeriodicTask('Retention purge', RETENTION_INTERVAL_MS, () => this.purge(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** Purges in batches until a batch comes back short. Returns what it deleted. */
  async purge(): Promise<{ actions: number; idempotencyKeys: number }> {
    const actions = await this.drain(() => this.retention.purgeFinishedActions(this.config.scheduling.retentionDays, BATCH_SIZE));
    const idempotencyKeys = await this.drain(() => this.retention.purgeExpiredIdempotencyKeys(BATCH_SIZE));
    await this.drain(() => this.retention.purgeExpiredNonces(BATCH_SIZE));
    if (actions + idempotencyKeys > 0) this.logger.log(`Purged ${actions} finished action(s) and ${idempotencyKeys} expired idempotency key(s)`);
    return { actions, idempotencyKeys };
  }

  private async drain(batch: () => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES_PER_RUN; i += 1) {
      const deleted = await batch();
      total += deleted;
      if (deleted < BATCH_SIZE) break;
    }
    return total;
  }
}
