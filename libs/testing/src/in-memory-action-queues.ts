import { QueueableAction } from '@app/database';
import { ActionQueuesPort, jobIdFor } from '@app/scheduling';

/**
 * The action queues in memory: each job by its id (`jobIdFor`, so queueing an action twice is
 * harmless, as on BullMQ) with the action it was queued for. `unavailable` makes `add` refuse as an
 * unreachable Redis does, and `enqueue` log instead of throwing, like `ActionQueues`.
 */
export class InMemoryActionQueues implements ActionQueuesPort {
  readonly jobs = new Map<string, QueueableAction>();
  /** Jobs whose run ended without moving their action on: `ensureQueued` replaces them. */
  readonly ended = new Set<string>();
  private marked = false;
  unavailable = false;

  async enqueue(actions: readonly QueueableAction[]): Promise<void> {
    await this.add(actions).catch(() => undefined);
  }

  async add(actions: readonly QueueableAction[]): Promise<void> {
    if (this.unavailable) throw new Error('Connection is closed.');
    for (const action of actions) if (!this.jobs.has(jobIdFor(action))) this.jobs.set(jobIdFor(action), action);
  }

  async ensureQueued(actions: readonly QueueableAction[]): Promise<number> {
    const missing = actions.filter((action) => !this.jobs.has(jobIdFor(action)) || this.ended.has(jobIdFor(action)));
    for (const action of missing) {
      this.jobs.delete(jobIdFor(action));
      this.ended.delete(jobIdFor(action));
    }
    await this.add(missing);
    return missing.length;
  }

  async markersWereMissing(): Promise<boolean> {
    const missing = !this.marked;
    this.marked = true;
    return missing;
  }

  async remove(action: QueueableAction): Promise<void> {
    this.jobs.delete(jobIdFor(action));
  }

  /** Forgets every job and marker, as a Redis that restarted empty. */
  reset(): void {
    this.jobs.clear();
    this.ended.clear();
    this.marked = false;
  }
}
