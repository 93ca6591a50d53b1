import { setTimeout as sleep } from 'node:timers/promises';
import { Test, TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { waitUntil } from '@app/testing';
import { SessionLock, TransactionLock, dataSourceOptions } from '@app/database';
import { AdvisoryLock, LeaderTask } from './leader-task';

/** A key no real task uses ("spec"). */
const SPEC_LOCK = 0x73706563;
const RUN_MS = 30;

interface Run {
  task: SpecTask;
  from: number;
  to?: number;
}

/** Records its runs, which last RUN_MS, or until `release` once runs are held. */
class SpecTask extends LeaderTask<unknown> {
  followed = 0;
  private hold?: Promise<void>;
  private releaseHold?: () => void;

  constructor(
    lock: AdvisoryLock<unknown>,
    private readonly runs: Run[],
  ) {
    super({ name: 'Spec task', intervalMs: 10 }, lock);
  }

  /** Makes the next runs last until `release`. */
  holdRuns(): void {
    this.hold = new Promise((resolve) => (this.releaseHold = resolve));
  }

  release(): void {
    this.releaseHold?.();
  }

  protected async lead(): Promise<void> {
    const run: Run = { task: this, from: performance.now() };
    this.runs.push(run);
    await (this.hold ?? sleep(RUN_MS));
    run.to = performance.now();
  }

  protected follow(): void {
    this.followed += 1;
  }
}

/** Starts the task as a Nest application would, in a module of its own: one "process". */
async function start(task: SpecTask): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({ providers: [{ provide: SpecTask, useValue: task }] }).compile();
  await moduleRef.init();
  return moduleRef;
}

function overlapping(runs: Run[]): Run[][] {
  return runs.flatMap((a, i) =>
    runs
      .slice(i + 1)
      .filter((b) => a.task !== b.task && a.from < (b.to ?? Infinity) && b.from < (a.to ?? Infinity))
      .map((b) => [a, b]),
  );
}

describe('LeaderTask (real Postgres)', () => {
  const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL!));
  const started: TestingModule[] = [];
  const run = async (task: SpecTask) => {
    const moduleRef = await start(task);
    started.push(moduleRef);
    return moduleRef;
  };
  const stop = (moduleRef: TestingModule) => {
    started.splice(started.indexOf(moduleRef), 1);
    return moduleRef.close();
  };
  beforeAll(() => dataSource.initialize());
  afterEach(async () => {
    await Promise.all(started.splice(0).map((moduleRef) => moduleRef.close()));
  });
  afterAll(() => dataSource.destroy());

  describe.each([
    ['a transaction-scoped lock', () => new TransactionLock(dataSource, SPEC_LOCK)],
    ['a session-level lock', () => new SessionLock(process.env.DATABASE_URL!, SPEC_LOCK)],
  ])('with %s', (_kind, newLock: () => AdvisoryLock<unknown>) => {
    it('runs on one instance at a time, and the other follows', async () => {
      const runs: Run[] = [];
      const [a, b] = [new SpecTask(newLock(), runs), new SpecTask(newLock(), runs)];
      await Promise.all([run(a), run(b)]);
      await waitUntil('a few runs', () => runs.length >= 10);
      expect(overlapping(runs)).toEqual([]);
      expect(a.followed + b.followed).toBeGreaterThan(0);
    });

    it('runs no more once stopped, and another instance takes over', async () => {
      const runs: Run[] = [];
      const first = new SpecTask(newLock(), runs);
      const firstModule = await run(first);
      await waitUntil('the first instance to run', () => runs.length > 0);
      const second = new SpecTask(newLock(), runs);
      await run(second);

      await stop(firstModule);
      const runsOfFirst = runs.filter((r) => r.task === first).length;
      await waitUntil('the second instance to run', () => runs.some((r) => r.task === second));
      await sleep(100);
      expect(runs.filter((r) => r.task === first)).toHaveLength(runsOfFirst);
    });

    it('waits at shutdown for the run in progress, and starts none after', async () => {
      const runs: Run[] = [];
      const task = new SpecTask(newLock(), runs);
      task.holdRuns();
      const moduleRef = await run(task);
      await waitUntil('a run to start', () => runs.length === 1);

      let closed = false;
      const closing = stop(moduleRef).then(() => (closed = true));
      await sleep(200);
      expect(closed).toBe(false);
      task.release();
      await closing;
      expect(runs).toHaveLength(1);
      expect(runs[0].to).toBeDefined();
      await sleep(100);
      expect(runs).toHaveLength(1);
    });
  });
});
