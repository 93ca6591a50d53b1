import { randomUUID } from 'node:crypto';
import { DelayedError, UnrecoverableError, WorkerOptions } from 'bullmq';
import type { ConsumedQueuesPort, ConsumerHandlers } from '../../libs/server/src/worker/execution/consumed-queues.port';
import type { ConsumedJob } from '../../libs/server/src/worker/execution/queued-work';

// What the worker's consumers rely on of the queues, as cases every implementation of their port
// must pass: BullMQ's workers on Redis in test/bull-consumed-queues.e2e-spec.ts, and the in-memory
// queues the unit specs use in test/in-memory-consumed-queues.spec.ts, so that the one cannot drift
// from the other.

/** Where a job is, in BullMQ's words. */
export type ConsumedJobState = 'active' | 'completed' | 'failed' | 'delayed' | 'waiting';

/** Queues under test, and how a case puts a job in one and sees where it is. */
export interface ConsumedQueuesUnderTest {
  queues: ConsumedQueuesPort;
  /** The worker options of a queue's consumer: its connection and key prefix. */
  options(queue: string): WorkerOptions;
  /** Puts a job in `queue`, whose consumer runs it: on BullMQ by adding it, in memory by handing it over. */
  add(queue: string, id: string, data: object): Promise<void>;
  /** Until `predicate` holds of the job's state (null: no such job), within a deadline on BullMQ, at once in memory. */
  eventually(what: string, queue: string, id: string, predicate: (state: ConsumedJobState | null) => boolean): Promise<void>;
  close(): Promise<void>;
}

type Process = ConsumerHandlers<object>['process'];

export function describeConsumedQueuesCases(name: string, start: () => Promise<ConsumedQueuesUnderTest>): void {
  describe(`${name}: the consumed queues' cases`, () => {
    let under: ConsumedQueuesUnderTest;
    beforeAll(async () => (under = await start()));
    afterAll(() => under?.close());

    /** A queue no other case touches, consumed with `process`; its failures and handed jobs recorded. */
    function consumed(process: Process) {
      const queue = `CASE_${randomUUID().slice(0, 8).toUpperCase()}`;
      const failures: { jobId: string | undefined; error: Error }[] = [];
      const handed: { id: string | undefined; queueName: string; data: object; token: string | undefined }[] = [];
      const consumer = under.queues.consume<object>(
        { queue, options: { ...under.options(queue), concurrency: 1 }, failedAttempts: {}, slotGroupOf: async () => null, run: async () => 'unused' },
        {
          process: (job, token) => {
            handed.push({ id: job.id, queueName: job.queueName, data: job.data, token });
            return process(job, token);
          },
          error: () => undefined,
          failed: (job, error) => failures.push({ jobId: job?.id, error }),
        },
      );
      return { queue, consumer, failures, handed };
    }
    const isIn =
      (...states: (ConsumedJobState | null)[]) =>
      (state: ConsumedJobState | null) =>
        states.includes(state);

    it("runs a job of its queue with the job's id, queue, data and a lock token; what it returns completes the job", async () => {
      const { queue, consumer, handed, failures } = consumed(async () => 'done');
      await under.add(queue, 'job-1', { n: 1 });
      await under.eventually('job-1 completed', queue, 'job-1', isIn('completed'));
      expect(handed).toEqual([{ id: 'job-1', queueName: queue, data: { n: 1 }, token: expect.any(String) }]);
      expect(failures).toEqual([]);
      await consumer.close();
    });

    it('leaves a job its processor moved to delayed, then ended with a DelayedError, delayed and not failed', async () => {
      const { queue, consumer, failures } = consumed(async (job: ConsumedJob, token) => {
        await job.moveToDelayed(Date.now() + 600_000, token);
        throw new DelayedError();
      });
      await under.add(queue, 'job-1', {});
      await under.eventually('job-1 delayed', queue, 'job-1', isIn('delayed'));
      expect(failures).toEqual([]);
      await consumer.close();
    });

    it('wakes a delayed job to run again now, and answers false for a job not delayed', async () => {
      let runs = 0;
      const { queue, consumer, handed } = consumed(async (job: ConsumedJob, token) => {
        if (++runs > 1) return 'ran again';
        await job.moveToDelayed(Date.now() + 600_000, token);
        throw new DelayedError();
      });
      await under.add(queue, 'job-1', {});
      await under.eventually('job-1 delayed', queue, 'job-1', isIn('delayed'));
      expect(await under.queues.wake(queue, 'job-1')).toBe(true);
      await under.eventually('job-1 no longer delayed', queue, 'job-1', isIn('waiting', 'active', 'completed'));
      expect(await under.queues.wake(queue, 'job-1')).toBe(false);
      expect(await under.queues.wake(queue, 'no-such-job')).toBe(false);
      await under.add(queue, 'job-2', {});
      await under.eventually('job-2 completed', queue, 'job-2', isIn('completed'));
      expect(await under.queues.wake(queue, 'job-2')).toBe(false);
      expect(handed.map((job) => job.id)).toEqual(expect.arrayContaining(['job-1', 'job-2']));
      await consumer.close();
    });

    it('fails a job whose processor threw any other error, telling the failed handler with the job and the error', async () => {
      const errors = { 'job-1': new Error('Postgres went away'), 'job-2': new UnrecoverableError('attempt failed') };
      const { queue, consumer, failures } = consumed(async (job) => {
        throw errors[job.id as keyof typeof errors];
      });
      for (const id of Object.keys(errors)) {
        await under.add(queue, id, {});
        await under.eventually(`${id} ended`, queue, id, (state) => failures.some((failure) => failure.jobId === id) && state !== 'active');
      }
      expect(failures).toEqual([
        { jobId: 'job-1', error: errors['job-1'] },
        { jobId: 'job-2', error: errors['job-2'] },
      ]);
      await consumer.close();
    });

    it('runs until closed, and closes once the job running then ended', async () => {
      const order: string[] = [];
      let finish!: () => void;
      const gate = new Promise<void>((resolve) => (finish = resolve));
      const { queue, consumer } = consumed(async () => {
        await gate;
        order.push('job ended');
        return 'done';
      });
      await under.add(queue, 'job-1', {});
      await under.eventually('job-1 running', queue, 'job-1', isIn('active'));
      expect(consumer.running()).toBe(true);
      const closing = consumer.close().then(() => order.push('closed'));
      expect(consumer.running()).toBe(false);
      // A round trip to the queue's store, which a close that did not wait for the job would have used to end.
      await under.eventually('job-1 still running', queue, 'job-1', isIn('active'));
      finish();
      await closing;
      expect(order).toEqual(['job ended', 'closed']);
    });
  });
}
