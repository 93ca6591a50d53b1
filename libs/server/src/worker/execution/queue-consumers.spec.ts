import { Logger } from '@nestjs/common';
import { DelayedError, UnrecoverableError } from 'bullmq';
import { InMemoryPorts, SPEC_NOW, specConfig } from '@app/testing';
import { ConcurrencySlots } from './concurrency-slots';
import { NotDueYetError } from './not-due-yet.error';
import { QueueConsumers } from './queue-consumers';
import type { ConsumedJob, QueuedWork } from './queued-work';
import { RunningAttempts } from './running-attempts';
import type { SlotGroup } from './slot-store.port';

const LEASE_MS = 900;
const SHUTDOWN_TIMEOUT_MS = 1000;
/** How long QueueConsumers gives attempts told to stop. */
const STOP_GRACE_MS = 5000;
const GROUP: SlotGroup = { kind: 'tenant', id: 'team-a', limit: 1 };
const quiet = { log: () => undefined, error: () => undefined, warn: () => undefined };

/** The consumers on the in-memory slot store and queues, serving one queue whose jobs run `run`. */
function consumersOn(run: QueuedWork['run'], slotGroupOf: QueuedWork['slotGroupOf'] = async () => GROUP) {
  const ports = new InMemoryPorts();
  const config = specConfig({ CLAIM_LEASE_MS: String(LEASE_MS), SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
  const attempts = new RunningAttempts(config);
  const slots = new ConcurrencySlots(ports.slots, ports.consumedQueues, config);
  const consumers = new QueueConsumers(attempts, slots, ports.consumedQueues, config);
  // The in-memory consumer never connects: the options are BullMQ's.
  consumers.serve({ queue: 'SPEC_TYPE', options: { connection: {} }, failedAttempts: { failed: 'Attempt failed, no retry left' }, slotGroupOf, run });
  const job = (id: string) => ports.consumedQueues.job('SPEC_TYPE', id, {});
  /** Whether another job could take a slot of the group now. */
  const slotFree = async () => {
    const free = await ports.slots.take(GROUP, 'another', 'parked-another', LEASE_MS);
    if (free) await ports.slots.settle(GROUP, { free: 'another' }, LEASE_MS, LEASE_MS);
    return free;
  };
  return { ports, attempts, consumers, job, slotFree };
}

/** An attempt of `job` held among the running ones until `until` ends, as the processor holds one. */
async function attemptOf(attempts: RunningAttempts, job: ConsumedJob, until: (signal: AbortSignal) => Promise<unknown>): Promise<string> {
  const lease = attempts.hold({ name: `attempt ${job.id}`, renew: async () => true }, quiet);
  try {
    await until(lease.signal);
    return 'interrupted';
  } finally {
    lease.release();
  }
}

const aborted = (signal: AbortSignal) => new Promise((resolve) => signal.addEventListener('abort', resolve));

describe('QueueConsumers', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    jest.useFakeTimers({ now: SPEC_NOW });
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.useRealTimers();
    warn.mockRestore();
  });
  const warnings = () => warn.mock.calls.map(([message]) => message as string);

  it('runs a job under a slot of its group, and frees the slot once it succeeded', async () => {
    let freeWhileRunning: boolean | undefined;
    const { ports, job, slotFree } = consumersOn(async () => {
      freeWhileRunning = await slotFree();
      return 'completed';
    });
    expect(await ports.consumedQueues.hand(job('1'))).toEqual({ returned: 'completed' });
    expect(freeWhileRunning).toBe(false);
    expect(await slotFree()).toBe(true);
  });

  it('frees the slot after an infrastructure error, and leaves the job to be retried by the queue', async () => {
    const { ports, job, slotFree } = consumersOn(async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    });
    const end = await ports.consumedQueues.hand(job('1'));
    expect(end).toEqual({ threw: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
    expect((end as { threw: Error }).threw).not.toBeInstanceOf(UnrecoverableError);
    expect(await slotFree()).toBe(true);
    expect(warnings()).toEqual(['Job 1 of queue SPEC_TYPE failed, to be retried: connect ECONNREFUSED 127.0.0.1:5432']);
  });

  it('runs a job of no group without a slot', async () => {
    const { ports, job, slotFree } = consumersOn(
      async () => ((await slotFree()) ? 'completed' : 'held a slot'),
      async () => null,
    );
    expect(await ports.consumedQueues.hand(job('1'))).toEqual({ returned: 'completed' });
  });

  it('parks a job whose group is full, delayed by a claim lease, without running it', async () => {
    const run = jest.fn(async () => 'completed');
    const { ports, job } = consumersOn(run);
    await ports.slots.take(GROUP, 'another', 'parked-another', LEASE_MS);
    const end = await ports.consumedQueues.hand(job('1'), 'lock-1');
    expect((end as { threw: Error }).threw).toBeInstanceOf(DelayedError);
    expect(run).not.toHaveBeenCalled();
    expect(ports.consumedQueues.delays).toEqual([{ queue: 'SPEC_TYPE', jobId: '1', timestamp: SPEC_NOW.getTime() + LEASE_MS, token: 'lock-1' }]);
    expect(ports.slots.parked(GROUP)).toEqual([JSON.stringify({ queue: 'SPEC_TYPE', jobId: '1' })]);
    expect(warnings()).toEqual([]);
  });

  it('delays a job that came early to when it is due, and frees its slot', async () => {
    const { ports, job, slotFree } = consumersOn(async () => {
      throw new NotDueYetError(5000);
    });
    const end = await ports.consumedQueues.hand(job('1'), 'lock-1');
    expect((end as { threw: Error }).threw).toBeInstanceOf(DelayedError);
    expect(ports.consumedQueues.delays).toEqual([{ queue: 'SPEC_TYPE', jobId: '1', timestamp: SPEC_NOW.getTime() + 5000, token: 'lock-1' }]);
    expect(await slotFree()).toBe(true);
    expect(warnings()).toEqual([]);
  });

  it('fails the job of a failed attempt with an UnrecoverableError giving its reason, and other outcomes not', async () => {
    const outcomes = ['failed', 'completed'];
    const { ports, job, slotFree } = consumersOn(async () => outcomes.shift()!);
    const failed = await ports.consumedQueues.hand(job('1'));
    expect((failed as { threw: Error }).threw).toBeInstanceOf(UnrecoverableError);
    expect((failed as { threw: Error }).threw.message).toBe('Attempt failed, no retry left');
    expect(await slotFree()).toBe(true);
    expect(await ports.consumedQueues.hand(job('2'))).toEqual({ returned: 'completed' });
    // The attempt's failure is recorded in Postgres: not a failure to retry.
    expect(warnings()).toEqual([]);
  });

  it('is running until its consumers are told to close, from the first moment of shutdown', async () => {
    const { consumers } = consumersOn(async () => 'completed');
    expect(consumers.running()).toBe(true);
    consumers.onModuleDestroy();
    expect(consumers.running()).toBe(false);
  });

  it('lets attempts that end within SHUTDOWN_TIMEOUT_MS end, stopping none', async () => {
    let finish!: () => void;
    const { ports, attempts, consumers, job } = consumersOn((each) => attemptOf(attempts, each, () => new Promise<void>((resolve) => (finish = resolve))));
    const end = ports.consumedQueues.hand(job('1'));
    await jest.advanceTimersByTimeAsync(0);
    consumers.onModuleDestroy();
    const shutdown = consumers.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(SHUTDOWN_TIMEOUT_MS - 1);
    finish();
    await shutdown;
    expect(await end).toEqual({ returned: 'interrupted' });
    expect(warnings()).toEqual([]);
  });

  it('stops the attempts still running after SHUTDOWN_TIMEOUT_MS through their signal, and names them', async () => {
    const { ports, attempts, consumers, job } = consumersOn(
      (each) => attemptOf(attempts, each, aborted),
      async () => ({ ...GROUP, limit: 2 }),
    );
    const ends = [ports.consumedQueues.hand(job('1')), ports.consumedQueues.hand(job('2'))];
    await jest.advanceTimersByTimeAsync(0);
    consumers.onModuleDestroy();
    const shutdown = consumers.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(SHUTDOWN_TIMEOUT_MS - 1);
    expect(attempts.count).toBe(2);
    await jest.advanceTimersByTimeAsync(1);
    await shutdown;
    expect(await Promise.all(ends)).toEqual([{ returned: 'interrupted' }, { returned: 'interrupted' }]);
    expect(warnings()).toEqual([
      'Stopped attempt 1, attempt 2: still running after SHUTDOWN_TIMEOUT_MS (1000 ms). ' +
        'Each is recorded as a failed attempt and tried again with the same idempotency key or webhook-id (FAILED when no retries are left)',
    ]);
  });

  it('abandons an attempt that ignores its signal once the grace after it passed, naming it apart', async () => {
    let reason: unknown;
    let finish!: () => void;
    const { ports, attempts, consumers, job } = consumersOn((each) =>
      attemptOf(attempts, each, (signal) => {
        signal.addEventListener('abort', () => (reason = signal.reason));
        return new Promise<void>((resolve) => (finish = resolve));
      }),
    );
    const end = ports.consumedQueues.hand(job('1'));
    await jest.advanceTimersByTimeAsync(0);
    consumers.onModuleDestroy();
    const shutdown = consumers.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(SHUTDOWN_TIMEOUT_MS);
    expect((reason as Error).message).toBe('stopped by worker shutdown (still running after SHUTDOWN_TIMEOUT_MS, 1000 ms)');
    await jest.advanceTimersByTimeAsync(STOP_GRACE_MS);
    await shutdown;
    expect(attempts.count).toBe(0);
    expect(warnings()).toEqual([
      'Exiting without attempt 1: told to stop, still running 5000 ms later. Once the claim lapses (CLAIM_LEASE_MS), ' +
        'another worker counts the attempt as interrupted and runs it again with the same idempotency key or webhook-id',
    ]);
    finish();
    await end;
  });
});
