import type { QueueableAction } from '@app/database';

/**
 * What the scheduler and the promoter need of the action queues (`ActionQueues` on BullMQ in the
 * apps): jobs are keyed by `jobIdFor(action)`, so queueing an action twice is harmless.
 */
export interface ActionQueuesPort {
  /** Queues the next attempt of each action due within the horizon; a queue failure is logged, never thrown. */
  enqueue(actions: readonly QueueableAction[]): Promise<void>;
  /** Adds one delayed job per action; throws when the queue refuses. */
  add(actions: readonly QueueableAction[]): Promise<void>;
  /** Makes sure each action's current job exists and can still run; how many jobs were added. */
  ensureQueued(actions: readonly QueueableAction[]): Promise<number>;
  /** Whether a queue's marker was missing (its store is new or lost its data); sets the missing ones. */
  markersWereMissing(): Promise<boolean>;
  /** Removes the job of the action's current revision, if still waiting. */
  remove(action: QueueableAction): Promise<void>;
}

export const ACTION_QUEUES = Symbol('ACTION_QUEUES');
