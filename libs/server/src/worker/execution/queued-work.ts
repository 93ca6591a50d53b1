import type { Job, WorkerOptions } from 'bullmq';
import type { SlotGroup } from './slot-store.port';

/** What the consumers use of a BullMQ job: which it is, its data, and delaying it again. */
export type ConsumedJob<Data = unknown> = Pick<Job<Data>, 'id' | 'queueName' | 'data' | 'moveToDelayed'>;

/**
 * One queue of durable work a worker consumes: an action type's attempts, or webhook deliveries.
 * Each job is one attempt, claimed, run and recorded in Postgres by `run`; `QueueConsumers` runs it
 * under its slot group's limit, delays it when it came early, and stops it with the others when the
 * worker stops.
 */
export interface QueuedWork<Data = unknown> {
  /** The BullMQ queue's name. */
  readonly queue: string;
  readonly options: WorkerOptions;
  /**
   * The reason a job is failed with in BullMQ's terms, by the outcome `run` answered, for an
   * attempt that failed: BullMQ lists it under failed, and never retries it (the row decides what
   * runs next, as a job of its own).
   */
  readonly failedAttempts: Readonly<Partial<Record<string, string>>>;
  /** The limit the job's attempt runs under, or null when it has none. */
  slotGroupOf(job: ConsumedJob<Data>): Promise<SlotGroup | null>;
  /** Claims, runs and records the job's attempt. Throws `NotDueYetError` when it came early, anything else when Postgres or Redis failed (BullMQ retries it). */
  run(job: ConsumedJob<Data>): Promise<string>;
}
