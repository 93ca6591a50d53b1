import { DelayedError } from 'bullmq';

/** A job as the worker's consumers use one (`ConsumedJob` of the worker's execution, which this lib does not import). */
export interface InMemoryJob<Data = unknown> {
  readonly id: string;
  readonly queueName: string;
  readonly data: Data;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}

/** How a consumer hands its jobs and troubles on (`ConsumerHandlers` of the worker's execution). */
interface Handlers<Data> {
  process(job: InMemoryJob<Data>, token: string | undefined): Promise<string>;
  error(error: Error): void;
  failed(job: InMemoryJob<Data> | undefined, error: Error): void;
}

/** How a job handed to a consumer ended: what its processor returned, or threw. */
export type JobEnd = { returned: string } | { threw: Error };

/** Where a job is, in BullMQ's words for the states the consumers lead a job through. */
export type JobState = 'active' | 'completed' | 'failed' | 'delayed' | 'waiting';

/** One queue's consumer: it runs the jobs a spec hands it until it is closed, and closes once they ended. */
class InMemoryConsumer {
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;

  constructor(private readonly handlers: Handlers<unknown>) {}

  running(): boolean {
    return !this.closing;
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Runs `job` as a BullMQ worker does: a DelayedError ends it as delayed, any other error as failed. */
  async run(job: InMemoryJob, token: string): Promise<JobEnd> {
    if (this.closing) throw new Error(`The consumer of ${job.queueName} is closed: it takes no new jobs`);
    const processed = this.handlers.process(job, token);
    this.inFlight.add(processed);
    try {
      return { returned: await processed };
    } catch (error) {
      if (!(error instanceof DelayedError)) this.handlers.failed(job, error as Error);
      return { threw: error as Error };
    } finally {
      this.inFlight.delete(processed);
    }
  }
}

/**
 * The queues as the worker's consumers see them, in memory (`ConsumedQueuesPort` of the worker's
 * execution): a consumer per queue, to which a spec hands jobs and sees how each ended, and the
 * jobs moved to delayed, which `wake` moves on as BullMQ's `promote` does.
 */
export class InMemoryConsumedQueues {
  private readonly consumers = new Map<string, InMemoryConsumer>();
  /** Delayed jobs, by queue and id, with when they are due. */
  private readonly delayed = new Map<string, number>();
  /** Every move to delayed, in order. */
  readonly delays: { queue: string; jobId: string; timestamp: number; token: string | undefined }[] = [];
  /** The jobs woken, in order. */
  readonly woken: { queue: string; jobId: string }[] = [];
  /** Each job's state once handed or woken, by queue and id (a delayed job's is read from `delayed`). */
  private readonly states = new Map<string, JobState>();

  consume<Data>(work: { readonly queue: string }, handlers: Handlers<Data>): InMemoryConsumer {
    const consumer = new InMemoryConsumer(handlers);
    this.consumers.set(work.queue, consumer);
    return consumer;
  }

  async wake(queue: string, jobId: string): Promise<boolean> {
    if (!this.delayed.delete(keyOf(queue, jobId))) return false;
    this.woken.push({ queue, jobId });
    this.states.set(keyOf(queue, jobId), 'waiting');
    return true;
  }

  /** A job of `queue`, which the consumers may delay. */
  job<Data>(queue: string, id: string, data: Data): InMemoryJob<Data> {
    return {
      id,
      queueName: queue,
      data,
      moveToDelayed: async (timestamp, token) => {
        this.delays.push({ queue, jobId: id, timestamp, token });
        this.delayed.set(keyOf(queue, id), timestamp);
      },
    };
  }

  /** Hands `job` to its queue's consumer, as BullMQ does with the lock `token`, and says how it ended. */
  async hand(job: InMemoryJob, token = `token-${job.id}`): Promise<JobEnd> {
    const consumer = this.consumers.get(job.queueName);
    if (!consumer) throw new Error(`No consumer of queue ${job.queueName}`);
    const key = keyOf(job.queueName, job.id);
    this.states.set(key, 'active');
    const end = await consumer.run(job, token);
    // A DelayedError leaves the job where its processor moved it; BullMQ keeps a job it was told was delayed but never moved as active until its lock lapses.
    if ('returned' in end) this.states.set(key, 'completed');
    else if (!(end.threw instanceof DelayedError)) this.states.set(key, 'failed');
    return end;
  }

  /** The job's state, or null for a job never handed nor delayed. */
  stateOf(queue: string, jobId: string): JobState | null {
    return this.delayed.has(keyOf(queue, jobId)) ? 'delayed' : (this.states.get(keyOf(queue, jobId)) ?? null);
  }

  /** Whether the job waits as delayed. */
  isDelayed(job: InMemoryJob): boolean {
    return this.delayed.has(keyOf(job.queueName, job.id));
  }

  /** Takes a job off the queue, as when it was removed or another worker ran it. */
  remove(job: InMemoryJob): void {
    this.delayed.delete(keyOf(job.queueName, job.id));
  }
}

const keyOf = (queue: string, jobId: string) => `${queue}/${jobId}`;
