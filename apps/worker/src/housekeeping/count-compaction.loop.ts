import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ActionCountsRepository } from '@app/database';
import { PeriodicTask } from './periodic-task';

/** Often enough that a stats read sums a few hundred deltas at most under load. */
export const COUNT_COMPACTION_INTERVAL_MS = 10_000;

/** Folds the per-statement deltas of the action counts into one row per type and status. */
@Injectable()
export class CountCompactionLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly task: PeriodicTask;

  constructor(counts: ActionCountsRepository) {
    this.task = new PeriodicTask('Count compaction', COUNT_COMPACTION_INTERVAL_MS, () => counts.compact(), new Logger(CountCompactionLoop.name));
  }

  onApplicationBootstrap(): void {
    this.task.start(COUNT_COMPACTION_INTERVAL_MS);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }
}
