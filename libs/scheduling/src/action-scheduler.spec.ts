import { randomUUID } from 'node:crypto';
import { ActionsRepository } from '@app/database';
import { ActionStatus, DEFAULT_TENANT, transition } from '@app/domain';
import { PunctualMetrics } from '@app/observability';
import { InMemoryPorts, specConfig } from '@app/testing';
import { jobIdFor } from './action-job';
import { ActionScheduler } from './action-scheduler';

function scheduler() {
  const ports = new InMemoryPorts();
  const config = specConfig();
  // Never reached: only an idempotent create uses the repository.
  const actions = {} as ActionsRepository;
  return { ports, scheduler: new ActionScheduler(actions, ports.store, ports.queues, new PunctualMetrics(config, ['SPEC_TYPE'], 'api')) };
}

describe('ActionScheduler: persist, then queue', () => {
  it('stores created actions and queues each one', async () => {
    const { ports, scheduler: s } = scheduler();
    const template = await ports.stored('SPEC_TYPE');
    const state = { ...template };
    const created = await s.createAll(
      [randomUUID(), randomUUID()].map((id) => ({
        id,
        action: 'SPEC_TYPE',
        tenantId: DEFAULT_TENANT,
        apiKeyId: 'k1',
        state,
        history: { from: null, to: ActionStatus.Pending, occurrence: 1, attempt: 0, note: null },
      })),
    );
    expect(created.map((action) => ports.store.row(action.id)?.status)).toEqual([ActionStatus.Pending, ActionStatus.Pending]);
    expect([...ports.queues.jobs.keys()].sort()).toEqual(created.map(jobIdFor).sort());
  });

  it('stores an action even when the queues are down: the promoter queues it later', async () => {
    const { ports, scheduler: s } = scheduler();
    ports.queues.unavailable = true;
    const template = await ports.stored('SPEC_TYPE');
    const id = randomUUID();
    await s.create({
      id,
      action: 'SPEC_TYPE',
      tenantId: DEFAULT_TENANT,
      apiKeyId: 'k1',
      state: { ...template },
      history: ports.store.historyOf(template.id)[0],
    });
    expect(ports.store.row(id)!.status).toBe(ActionStatus.Pending);
    expect(ports.queues.jobs.size).toBe(0);
  });

  it('replaces the job of a change that gives a new due time', async () => {
    const { ports, scheduler: s } = scheduler();
    const action = await ports.stored('SPEC_TYPE', { executionTime: new Date(ports.clock.now().getTime() + 3_600_000) });
    await ports.queues.add([action]);
    const later = new Date(ports.clock.now().getTime() + 7_200_000);
    const t = transition(action, { type: 'patched', now: ports.clock.now(), by: 'k1', changes: { executionTime: later } });
    const updated = await s.apply(t, { statuses: [ActionStatus.Pending] });
    expect(updated!.revision).toBe(action.revision + 1);
    expect([...ports.queues.jobs.keys()]).toEqual([jobIdFor(updated!)]);
  });

  it('takes the job of an action that a change finished, and queues none', async () => {
    const { ports, scheduler: s } = scheduler();
    const action = await ports.stored('SPEC_TYPE', { executionTime: new Date(ports.clock.now().getTime() + 3_600_000) });
    await ports.queues.add([action]);
    const t = transition(action, { type: 'canceled', now: ports.clock.now(), note: null, lockWindowMs: 0 });
    expect((await s.apply(t, { statuses: [ActionStatus.Pending] }))!.status).toBe(ActionStatus.Canceled);
    expect(ports.queues.jobs.size).toBe(0);
  });

  it('leaves the queue alone when the row moved on since it was read', async () => {
    const { ports, scheduler: s } = scheduler();
    const action = await ports.stored('SPEC_TYPE');
    await ports.queues.add([action]);
    ports.store.update(action.id, { revision: action.revision + 1 });
    const t = transition(action, { type: 'canceled', now: ports.clock.now(), note: null, lockWindowMs: 0 });
    expect(await s.apply(t, { statuses: [ActionStatus.Pending] })).toBeNull();
    expect([...ports.queues.jobs.keys()]).toEqual([jobIdFor(action)]);
  });

  it("queues a retry an attempt's outcome scheduled, and nothing when the attempt was fenced off", async () => {
    const { ports, scheduler: s } = scheduler();
    const stored = await ports.stored('SPEC_TYPE');
    const claim = await ports.store.claim(stored.id, stored.revision, 'SPEC_TYPE', 30_000);
    if (claim.kind !== 'claimed') throw new Error(`not claimed: ${claim.kind}`);
    const failed = transition(claim.action, {
      type: 'failed',
      now: ports.clock.now(),
      error: 'HTTP 500',
      permanent: false,
      retryPolicy: { maxRetries: 1, backoff: { kind: 'fixed-list', delaysMs: [1000] } },
    });
    ports.store.update(stored.id, { claimToken: 'other-worker' });
    expect(await s.recordOutcome(failed)).toBeNull();
    expect(ports.queues.jobs.size).toBe(0);
    ports.store.update(stored.id, { claimToken: claim.action.claimToken });
    const retry = await s.recordOutcome(failed);
    expect(retry).toMatchObject({ status: ActionStatus.Pending, retryCount: 1 });
    expect([...ports.queues.jobs.keys()]).toEqual([jobIdFor(retry!)]);
  });
});
