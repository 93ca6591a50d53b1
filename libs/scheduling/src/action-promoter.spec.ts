import { Logger } from '@nestjs/common';
import { ActionEntity } from '@app/database';
import { ActionStatus } from '@app/domain';
import { PunctualMetrics } from '@app/observability';
import { InMemoryPorts, NO_TRANSACTION, specConfig } from '@app/testing';
import { jobIdFor } from './action-job';
import { ActionPromoter } from './action-promoter';

/** Longer than any spec here moves the clock: the worker stays live without heartbeats. */
const A_DAY_MS = 24 * 3600_000;
/** Small batches, so that a few actions fill several, and the reads of a tick. */
const BATCHES = { size: 4, perTick: 3 };

/**
 * A promoter on the in-memory ports, with one live worker that serves SPEC_TYPE and also knows
 * OTHER_TYPE, and a Redis that has seen a tick already (its markers are set).
 */
async function promoter() {
  const ports = new InMemoryPorts();
  const config = specConfig();
  const metrics = new PunctualMetrics(config, ['SPEC_TYPE'], 'worker');
  ports.schedule.beat('worker-1', { knows: ['SPEC_TYPE', 'OTHER_TYPE'], serves: ['SPEC_TYPE'] }, A_DAY_MS);
  await ports.queues.markersWereMissing();
  const p = new ActionPromoter(ports.schedule, ports.store, ports.queues, config, metrics, BATCHES);
  /** One tick on the leader: its reads, then what it does with them. */
  const tick = async () => p.settle(await p.lead(NO_TRANSACTION));
  /** `ms` from now on the spec's clock. */
  const at = (ms: number) => new Date(ports.clock.now().getTime() + ms);
  const queued = (...actions: ActionEntity[]) => actions.every((action) => ports.queues.jobs.has(jobIdFor(action)));
  return { ports, promoter: p, tick, at, queued, ...config.scheduling };
}

const lead = { promoted: 0, redisWasReset: false, unknown: [], overdue: [] };

describe('ActionPromoter.settle', () => {
  it('ends NO_ACTION the actions of a type no live worker knew, each only if still as read, and reports how many', async () => {
    const { ports, promoter: p } = await promoter();
    const [unknown, changed] = [await ports.stored('GONE_TYPE'), await ports.stored('GONE_TYPE')];
    ports.store.update(changed.id, { revision: changed.revision + 1 });
    const report = await p.settle({ ...lead, unknown: [unknown, changed] });
    expect(report).toEqual({ promoted: 0, requeued: 0, noAction: 1, redisWasReset: false });
    expect(ports.store.row(unknown.id)).toMatchObject({
      status: ActionStatus.NoAction,
      lastError: expect.stringMatching(/No live worker knew action type GONE_TYPE/),
    });
    expect(ports.store.row(changed.id)!.status).toBe(ActionStatus.Pending);
  });

  it('queues again only the overdue actions whose job is missing or ended without moving them on', async () => {
    const { ports, promoter: p } = await promoter();
    const [queued, lost, ended] = [await ports.stored('SPEC_TYPE'), await ports.stored('SPEC_TYPE'), await ports.stored('SPEC_TYPE')];
    await ports.queues.add([queued, ended]);
    ports.queues.ended.add(jobIdFor(ended));
    const report = await p.settle({ ...lead, promoted: 7, overdue: [queued, lost, ended] });
    expect(report).toEqual({ promoted: 7, requeued: 2, noAction: 0, redisWasReset: false });
    expect([...ports.queues.jobs.keys()].sort()).toEqual([queued, lost, ended].map(jobIdFor).sort());
    expect(ports.queues.ended.size).toBe(0);
  });

  it('fails the tick, for the next one to do again, when the queues refuse the overdue jobs', async () => {
    const { ports, promoter: p } = await promoter();
    const lost = await ports.stored('SPEC_TYPE');
    ports.queues.unavailable = true;
    await expect(p.settle({ ...lead, overdue: [lost] })).rejects.toThrow(/Connection is closed/);
    expect(ports.queues.jobs.size).toBe(0);
  });

  describe('what it logs when Redis had no markers', () => {
    afterEach(() => jest.restoreAllMocks());
    const spies = () => ({
      warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(),
      log: jest.spyOn(Logger.prototype, 'log').mockImplementation(),
    });

    it('says so at info, without a warning, when there was nothing to queue again (a first start)', async () => {
      const { warn, log } = spies();
      await (await promoter()).promoter.settle({ ...lead, redisWasReset: true });
      expect(warn).not.toHaveBeenCalled();
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/no queue markers yet .*nothing to re-queue/));
    });

    it('warns that Redis was reset when it queued jobs again', async () => {
      const { warn } = spies();
      await (await promoter()).promoter.settle({ ...lead, promoted: 3, redisWasReset: true });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Redis was reset; .*promoted 3/));
    });
  });
});

describe('ActionPromoter.lead', () => {
  it('queues the PENDING actions entering the horizon once, never one held by a pause, and later ones as the horizon reaches them', async () => {
    const { ports, tick, at, queued, horizonMs } = await promoter();
    const soon = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(1000) });
    const later = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(horizonMs + 5000) });
    const paused = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(1000), pausedFrom: 1 });
    expect(await tick()).toEqual({ promoted: 1, requeued: 0, noAction: 0, redisWasReset: false });
    expect([...ports.queues.jobs.keys()]).toEqual([jobIdFor(soon)]);
    expect(ports.schedule.promotedUntil).toEqual(at(horizonMs));
    // The watermark moved past it: the next tick reads only what entered the horizon since.
    expect((await tick()).promoted).toBe(0);
    // The horizon's end is not in it.
    ports.clock.advance(5000);
    expect((await tick()).promoted).toBe(0);
    ports.clock.advance(1);
    expect((await tick()).promoted).toBe(1);
    expect(queued(soon, later)).toBe(true);
    expect(queued(paused)).toBe(false);
  });

  it('promotes more than a batch in one tick, and a backlog beyond the batches of a tick on the next', async () => {
    const { ports, tick, at, horizonMs } = await promoter();
    const perTick = BATCHES.size * BATCHES.perTick;
    const backlog = Array.from({ length: perTick + 1 }, (_, i) => ({ nextAttemptAt: at(1000 + i) }));
    await ports.storedMany('SPEC_TYPE', backlog);
    expect((await tick()).promoted).toBe(perTick);
    expect(ports.queues.jobs.size).toBe(perTick);
    // The watermark stops at the last action queued, not at the horizon.
    expect(ports.schedule.promotedUntil).toEqual(backlog[perTick - 1].nextAttemptAt);
    await tick();
    expect(ports.queues.jobs.size).toBe(perTick + 1);
    expect(ports.schedule.promotedUntil).toEqual(at(horizonMs));
  });

  it('queues again everything PENDING within the horizon, due or not, once the queue markers are missing (Redis lost its data)', async () => {
    const { ports, tick, at, queued, horizonMs } = await promoter();
    const due = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(-1000) });
    const soon = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(1000) });
    const later = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(horizonMs + 1000) });
    const paused = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(1000), pausedFrom: 1 });
    expect((await tick()).promoted).toBe(2);
    expect((await tick()).promoted).toBe(0);
    ports.queues.reset();
    expect(await tick()).toEqual({ promoted: 2, requeued: 0, noAction: 0, redisWasReset: true });
    expect(queued(due, soon)).toBe(true);
    expect(queued(later) || queued(paused)).toBe(false);
    expect((await tick()).redisWasReset).toBe(false);
  });

  it('ends NO_ACTION a due action only once no live worker knew its type for the grace, and never one held by a pause', async () => {
    const { ports, tick, unknownTypeGraceMs } = await promoter();
    const gone = await ports.stored('GONE_TYPE');
    const paused = await ports.stored('GONE_TYPE', { pausedFrom: 1 });
    // Known, though served by none: a rolling deploy adds a type to one worker at a time.
    const known = await ports.stored('OTHER_TYPE');
    ports.clock.advance(unknownTypeGraceMs - 1);
    expect((await tick()).noAction).toBe(0);
    ports.clock.advance(1);
    expect((await tick()).noAction).toBe(1);
    expect(ports.store.row(gone.id)!.status).toBe(ActionStatus.NoAction);
    ports.schedule.stop('worker-1');
    ports.clock.advance(unknownTypeGraceMs - 1);
    expect((await tick()).noAction).toBe(0);
    ports.clock.advance(1);
    expect((await tick()).noAction).toBe(1);
    expect(ports.store.row(known.id)!.status).toBe(ActionStatus.NoAction);
    ports.clock.advance(A_DAY_MS);
    expect((await tick()).noAction).toBe(0);
    expect(ports.store.row(paused.id)!.status).toBe(ActionStatus.Pending);
  });

  it('walks the whole overdue set across ticks, so a full batch of actions whose jobs wait hides no lost one', async () => {
    const { ports, tick, at, queued, overdueGraceMs } = await promoter();
    const waiting = await ports.storedMany(
      'SPEC_TYPE',
      Array.from({ length: BATCHES.size }, (_, i) => ({ nextAttemptAt: at(i) })),
    );
    const lost = await ports.stored('SPEC_TYPE', { nextAttemptAt: at(BATCHES.size) });
    expect((await tick()).promoted).toBe(BATCHES.size + 1);
    await ports.queues.remove(lost);
    ports.clock.advance(BATCHES.size + overdueGraceMs + 1);
    expect((await tick()).requeued).toBe(0);
    expect(queued(lost)).toBe(false);
    expect((await tick()).requeued).toBe(1);
    expect(queued(lost)).toBe(true);
    // That sweep reached the end of the set: the next starts over.
    await ports.queues.remove(waiting[0]);
    expect((await tick()).requeued).toBe(1);
    expect(queued(waiting[0])).toBe(true);
  });

  it('queues again an attempt whose claim lapsed more than the grace ago (its worker died)', async () => {
    const { ports, tick, at, queued, overdueGraceMs } = await promoter();
    const [died, lapsing] = await ports.storedMany('SPEC_TYPE', [{}, {}]);
    ports.store.update(died.id, { status: ActionStatus.InProgress, claimToken: 'a', claimedUntil: at(-overdueGraceMs - 1) });
    ports.store.update(lapsing.id, { status: ActionStatus.InProgress, claimToken: 'b', claimedUntil: at(-overdueGraceMs) });
    expect(await tick()).toEqual({ promoted: 0, requeued: 1, noAction: 0, redisWasReset: false });
    expect(queued(died)).toBe(true);
    expect(queued(lapsing)).toBe(false);
  });

  it('leaves the overdue actions of a type no live worker serves until one does', async () => {
    const { ports, tick, queued, overdueGraceMs } = await promoter();
    const [served, other] = [await ports.stored('SPEC_TYPE'), await ports.stored('OTHER_TYPE')];
    expect((await tick()).promoted).toBe(2);
    await Promise.all([ports.queues.remove(served), ports.queues.remove(other)]);
    ports.clock.advance(overdueGraceMs + 1);
    expect((await tick()).requeued).toBe(1);
    expect(queued(served)).toBe(true);
    expect(queued(other)).toBe(false);
    // A worker that served it and died does not count.
    ports.schedule.beat('worker-2', { knows: ['OTHER_TYPE'], serves: ['OTHER_TYPE'] }, 1000);
    ports.clock.advance(1000);
    expect((await tick()).requeued).toBe(0);
    ports.schedule.beat('worker-2', { knows: ['OTHER_TYPE'], serves: ['OTHER_TYPE'] }, 1000);
    expect((await tick()).requeued).toBe(1);
    expect(queued(other)).toBe(true);
  });
});
