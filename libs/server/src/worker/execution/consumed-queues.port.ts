import type { ConsumedJob, QueuedWork } from './queued-work';

/** How a queue's consumer hands its jobs and troubles to `QueueConsumers`. */
export interface ConsumerHandlers<Data> {
  /** Runs a job; what it returns or throws is the job's end in BullMQ's terms (a DelayedError: delayed again, by the job itself). */
  process(job: ConsumedJob<Data>, token: string | undefined): Promise<string>;
  /** The consumer's connection or its commands failed. */
  error(error: Error): void;
  /** A job ended failed: retried by the queue unless the error is an UnrecoverableError. */
  failed(job: ConsumedJob<Data> | undefined, error: Error): void;
}

/** One queue's consumer. */
export interface QueueConsumer {
  /** Whether it takes jobs: started, and not told to close. */
  running(): boolean;
  /** Takes no new jobs, and resolves once the running ones ended. */
  close(): Promise<void>;
}

/**
 * What the worker's consumers need of the queues (BullMQ in the apps, `BullConsumedQueues`): a
 * consumer per queue of durable work, and waking a job parked as delayed.
 */
export interface ConsumedQueuesPort {
  /** Starts consuming `work`'s queue with `handlers`. */
  consume<Data>(work: QueuedWork<Data>, handlers: ConsumerHandlers<Data>): QueueConsumer;
  /** Moves the job from delayed to waiting, to run now; false when it is gone or no longer delayed. */
  wake(queue: string, jobId: string): Promise<boolean>;
}

export const CONSUMED_QUEUES = Symbol('CONSUMED_QUEUES');
