import { Logger } from '@nestjs/common';
import { ScheduleRepository, WorkersRepository } from '@app/database';
import { ActionStatus } from '@app/domain';
import { PunctualMetrics } from '@app/observability';
import { InMemoryPorts, specConfig } from '@app/testing';
import { jobIdFor } from './action-job';
import { ActionPromoter } from './action-promoter';

// The part of a promoter's tick after its leader transaction: what it does with what the reads found.
function promoter() {
  const ports = new InMemoryPorts();
  const config = specConfig();
  // Only `lead` reads them, on a Postgres transaction; `settle` is what these specs drive.
  const reads = { schedule: {} as ScheduleRepository, workers: {} as WorkersRepository };
  const metrics = new PunctualMetrics(config, ['SPEC_TYPE'], 'worker');
  return { ports, promoter: new ActionPromoter(reads.schedule, ports.store, ports.queues, reads.workers, config, metrics) };
}

const lead = { promoted: 0, redisWasReset: false, unknown: [], overdue: [] };

describe('ActionPromoter.settle', () => {
  it('ends NO_ACTION the actions of a type no live worker knew, each only if still as read, and reports how many', async () => {
    const { ports, promoter: p } = promoter();
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
    const { ports, promoter: p } = promoter();
    const [queued, lost, ended] = [await ports.stored('SPEC_TYPE'), await ports.stored('SPEC_TYPE'), await ports.stored('SPEC_TYPE')];
    await ports.queues.add([queued, ended]);
    ports.queues.ended.add(jobIdFor(ended));
    const report = await p.settle({ ...lead, promoted: 7, overdue: [queued, lost, ended] });
    expect(report).toEqual({ promoted: 7, requeued: 2, noAction: 0, redisWasReset: false });
    expect([...ports.queues.jobs.keys()].sort()).toEqual([queued, lost, ended].map(jobIdFor).sort());
    expect(ports.queues.ended.size).toBe(0);
  });

  it('fails the tick, for the next one to do again, when the queues refuse the overdue jobs', async () => {
    const { ports, promoter: p } = promoter();
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
      await promoter().promoter.settle({ ...lead, redisWasReset: true });
      expect(warn).not.toHaveBeenCalled();
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/no queue markers yet .*nothing to re-queue/));
    });

    it('warns that Redis was reset when it queued jobs again', async () => {
      const { warn } = spies();
      await promoter().promoter.settle({ ...lead, promoted: 3, redisWasReset: true });
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Redis was reset; .*promoted 3/));
    });
  });
});
