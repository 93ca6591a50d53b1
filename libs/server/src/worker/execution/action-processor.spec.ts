import { ConsoleLogger, Logger } from '@nestjs/common';
import { IsString } from 'class-validator';
import { ActionEntity, ActionsRepository } from '@app/database';
import { ActionStatus, DEFAULT_TENANT, Frequency } from '@app/domain';
import { PunctualMetrics } from '@app/observability';
import { ActionScheduler } from '@app/scheduling';
import { AttemptSigner } from '@app/signature';
import { InMemoryPorts, specConfig } from '@app/testing';
import { ActionFulfillment, FulfillmentContext, PermanentFulfillmentError, defineActionType } from '@punctual/sdk';
import { ActionProcessor } from './action-processor';
import { FulfillmentRegistry } from './fulfillment.registry';
import { NotDueYetError } from './not-due-yet.error';
import { RunningAttempts } from './running-attempts';

class SpecData {
  @IsString()
  message: string;
}
const SPEC_TYPE = defineActionType({ type: 'SPEC_TYPE', dataClass: SpecData });
/** A short lease, so that the branches bounded by one end within the spec. */
const LEASE_MS = 600;

/** The worker's processor on in-memory ports: `fulfill` is the type's fulfillment, one retry allowed. */
function processorWith(fulfill: (data: SpecData, context: FulfillmentContext) => Promise<{ note?: string }>, leaseMs = LEASE_MS) {
  const ports = new InMemoryPorts();
  const config = specConfig({ CLAIM_LEASE_MS: String(leaseMs) });
  const metrics = new PunctualMetrics(config, [SPEC_TYPE.type], 'worker');
  // Never reached: only an idempotent create uses the repository.
  const scheduler = new ActionScheduler({} as ActionsRepository, ports.store, ports.queues, metrics);
  const fulfilled = jest.fn(fulfill);
  const fulfillment: ActionFulfillment<SpecData> = { fulfill: fulfilled };
  const registry = {
    get: (type: string) => (type === SPEC_TYPE.type ? { fulfillment, metadata: { definition: SPEC_TYPE, options: { maxRetries: 1 } } } : undefined),
  } as FulfillmentRegistry;
  const attempts = new RunningAttempts(config);
  // Never reached: no spec fulfillment signs.
  const signer = {} as AttemptSigner;
  const processor = new ActionProcessor(ports.store, ports.store, scheduler, registry, ports.clock, config, metrics, attempts, signer);
  const run = (action: ActionEntity) => processor.process(SPEC_TYPE.type, { actionId: action.id, revision: action.revision, tenantId: DEFAULT_TENANT });
  return { ports, run, fulfilled, attempts, processor };
}

const succeed = async () => ({ note: 'done' });

describe('ActionProcessor', () => {
  // The refusals and give-ups it logs are expected here.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  it('claims a due action, runs it once and records its success, queueing nothing more', async () => {
    const { ports, run, fulfilled } = processorWith(succeed);
    const action = await ports.stored(SPEC_TYPE.type);
    expect(await run(action)).toBe('completed');
    expect(fulfilled).toHaveBeenCalledTimes(1);
    expect(ports.store.row(action.id)).toMatchObject({ status: ActionStatus.Completed, claimToken: null });
    expect(ports.store.historyOf(action.id).map((entry) => entry.to)).toEqual(['PENDING', 'IN_PROGRESS', 'COMPLETED']);
    expect(ports.queues.jobs.size).toBe(0);
  });

  it('records a failure with retries left as a retry, and queues it', async () => {
    const { ports, run } = processorWith(async () => Promise.reject(new Error('HTTP 503')));
    const action = await ports.stored(SPEC_TYPE.type);
    expect(await run(action)).toBe('retry');
    expect(ports.store.row(action.id)).toMatchObject({ status: ActionStatus.Pending, retryCount: 1, lastError: 'HTTP 503' });
    expect([...ports.queues.jobs.values()].map((job) => job.id)).toEqual([action.id]);
  });

  it('ends the action FAILED on a permanent failure, whatever retries are left', async () => {
    const { ports, run } = processorWith(async () => Promise.reject(new PermanentFulfillmentError('bad request')));
    const action = await ports.stored(SPEC_TYPE.type);
    expect(await run(action)).toBe('failed');
    expect(ports.store.row(action.id)!.status).toBe(ActionStatus.Failed);
  });

  it('skips a stale job, without running anything', async () => {
    const { ports, run, fulfilled } = processorWith(succeed);
    const action = await ports.stored(SPEC_TYPE.type);
    expect(await run({ ...action, revision: action.revision - 1 })).toBe('skipped');
    expect(fulfilled).not.toHaveBeenCalled();
    expect(ports.store.row(action.id)!.status).toBe(ActionStatus.Pending);
  });

  it('tells an early job how long to wait, claiming nothing', async () => {
    const { ports, run } = processorWith(succeed);
    const action = await ports.stored(SPEC_TYPE.type, { nextAttemptAt: new Date(ports.clock.now().getTime() + 5000) });
    const early = await run(action).catch((error: unknown) => error);
    expect(early).toBeInstanceOf(NotDueYetError);
    expect((early as NotDueYetError).dueInMs).toBe(5000);
    expect(ports.store.row(action.id)!.status).toBe(ActionStatus.Pending);
  });

  it('refuses a job of a type it does not serve before claiming anything', async () => {
    const { ports, fulfilled, processor } = processorWith(succeed);
    const action = await ports.stored('UNSERVED');
    const job = { actionId: action.id, revision: action.revision, tenantId: DEFAULT_TENANT };
    await expect(processor.process('UNSERVED', job)).rejects.toThrow('This worker does not serve action type UNSERVED');
    expect(ports.store.calls.claim).toBe(0);
    expect(fulfilled).not.toHaveBeenCalled();
  });

  it('takes over an attempt whose lease expired: the lost attempt counts as failed before the next one runs', async () => {
    const { ports, run, fulfilled } = processorWith(succeed);
    const action = await ports.stored(SPEC_TYPE.type, { status: ActionStatus.InProgress });
    ports.store.update(action.id, { claimToken: 'dead-worker', claimedUntil: new Date(ports.clock.now().getTime() - 1) });
    expect(await run(action)).toBe('completed');
    expect(fulfilled).toHaveBeenCalledTimes(1);
    const entries = ports.store.historyOf(action.id).slice(1);
    expect(entries.map(({ to, attempt }) => [to, attempt])).toEqual([
      ['IN_PROGRESS', 2],
      ['COMPLETED', 2],
    ]);
    expect(entries[0].note).toMatch(/interrupted/);
  });

  it('ends FAILED, running nothing, when the expired attempt was the last one allowed', async () => {
    const { ports, run, fulfilled } = processorWith(succeed);
    const action = await ports.stored(SPEC_TYPE.type, { status: ActionStatus.InProgress, retryCount: 1 });
    ports.store.update(action.id, { claimToken: 'dead-worker', claimedUntil: new Date(ports.clock.now().getTime() - 1) });
    expect(await run(action)).toBe('failed');
    expect(fulfilled).not.toHaveBeenCalled();
    expect(ports.store.row(action.id)!.status).toBe(ActionStatus.Failed);
  });

  it('is fenced off when another worker took the attempt over mid-run: its outcome is refused once, and nothing is written', async () => {
    const { ports, run } = processorWith(async () => {
      ports.store.update(action.id, { claimToken: 'other-worker' });
      return { note: 'late' };
    });
    const action = await ports.stored(SPEC_TYPE.type);
    expect(await run(action)).toBe('fenced');
    expect(ports.store.calls.persist).toBe(1);
    expect(ports.store.row(action.id)).toMatchObject({ status: ActionStatus.InProgress, claimToken: 'other-worker' });
    expect(ports.store.historyOf(action.id).at(-1)!.to).toBe('IN_PROGRESS');
  });

  it('decides again when a cancel arrived mid-run: the attempt ends the action CANCELED', async () => {
    const { ports, run } = processorWith(async () => {
      ports.store.update(action.id, { cancelRequestedAt: ports.clock.now() });
      return { note: 'ran' };
    });
    const action = await ports.stored(SPEC_TYPE.type);
    expect(await run(action)).toBe('canceled');
    expect(ports.store.calls.persist).toBe(2);
    expect(ports.store.row(action.id)!.status).toBe(ActionStatus.Canceled);
  });

  it('keeps writing an outcome while Postgres is down and its claim holds, without running the fulfillment again', async () => {
    let failures = 2;
    // A lease far longer than the retries' backoff: the claim holds throughout.
    const { ports, run, fulfilled } = processorWith(async () => {
      ports.store.unavailable = true;
      return { note: 'done' };
    }, 10_000);
    const persist = ports.store.persist.bind(ports.store);
    jest.spyOn(ports.store, 'persist').mockImplementation((t, guard) => {
      if (failures-- === 0) ports.store.unavailable = false;
      return persist(t, guard);
    });
    const action = await ports.stored(SPEC_TYPE.type);
    expect(await run(action)).toBe('completed');
    expect(fulfilled).toHaveBeenCalledTimes(1);
    expect(ports.store.calls.persist).toBe(3);
  });

  it('gives an outcome up once its claim is lost to an outage that outlasts it: a bounded number of writes, never a loop', async () => {
    const { ports, run, attempts } = processorWith(async () => {
      ports.store.unavailable = true;
      return { note: 'done' };
    });
    const action = await ports.stored(SPEC_TYPE.type);
    await expect(run(action)).rejects.toThrow(/ECONNREFUSED/);
    // 80 % of a 600 ms lease with backoff from 100 ms: a handful of tries.
    expect(ports.store.calls.persist).toBeLessThanOrEqual(5);
    expect(attempts.count).toBe(0);
  });

  it("gives a takeover's write up after one lease when Postgres stays down: the job fails and the occurrence heals later", async () => {
    const { ports, run, fulfilled } = processorWith(succeed);
    const action = await ports.stored(SPEC_TYPE.type, { status: ActionStatus.InProgress });
    ports.store.update(action.id, { claimToken: 'dead-worker', claimedUntil: new Date(ports.clock.now().getTime() - 1) });
    const claim = ports.store.claim.bind(ports.store);
    jest.spyOn(ports.store, 'claim').mockImplementation(async (...args) => {
      const claimed = await claim(...args);
      ports.store.unavailable = true;
      return claimed;
    });
    const started = performance.now();
    await expect(run(action)).rejects.toThrow(/ECONNREFUSED/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(LEASE_MS - 50);
    expect(ports.store.calls.persist).toBeLessThanOrEqual(6);
    expect(fulfilled).not.toHaveBeenCalled();
  });

  it('skips an occurrence due on a date of its calendar, moving the schedule on without running it', async () => {
    const { ports, run, fulfilled } = processorWith(succeed);
    ports.store.putCalendar(DEFAULT_TENANT, 'holidays', [ports.clock.now().toISOString().slice(0, 10)]);
    const action = await ports.stored(SPEC_TYPE.type, { calendar: 'holidays', repeat: true, frequency: Frequency.Daily, timezone: 'UTC' });
    expect(await run(action)).toBe('calendar-date');
    expect(fulfilled).not.toHaveBeenCalled();
    const row = ports.store.row(action.id)!;
    expect(row.status).toBe(ActionStatus.Pending);
    expect(row.executionTime.getTime()).toBe(action.executionTime.getTime() + 86_400_000);
  });
});
