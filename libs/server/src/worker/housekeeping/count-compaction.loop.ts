import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ActionCountsRepository } from '@app/database';
import { LeaderTask } from '@app/runtime';

/** Often enough that a stats read sums a few hundred deltas at most under load. */
export const COUNT_COMPACTION_INTERVAL_MS = 10_000;

/** Folds the per-statement deltas of the action counts into one row per type and status, one worker at a time (the compaction lock). */
@Injectable()
export class CountCompactionLoop extends LeaderTask<EntityManager> {
  constructor(private readonly counts: ActionCountsRepository) {
    super({ name: 'Count compaction', intervalMs: COUNT_COMPACTION_INTERVAL_MS, firstDelayMs: COUNT_COMPACTION_INTERVAL_MS }, counts.lock);
  }

  protected lead(manager: EntityManager): Promise<number> {
    return this.counts.compact(manager);
  }
}
