import { Queue } from 'bullmq';
import { redisOptionsFromUrl } from '@punctual/contract';
import { QueueableAction } from '@app/database';
import { fairShares } from '../libs/scheduling/src/fair-share';

/** A second's start far from now, so that no run of this spec meets another's counters. */
const SECOND = Math.floor(Date.now() / 1000) * 1000 + 86_400_000 * (1 + Math.floor(Math.random() * 1000));

const due = (tenantId: string, at: number, index: number): QueueableAction =>
  ({ id: `${tenantId}-${at}-${index}`, action: 'FAIR_SPEC', revision: 0, tenantId, nextAttemptAt: new Date(at), status: 'PENDING' }) as QueueableAction;

describe('Fair shares: ranks as priorities, and a burst paced into the runnable set (contract §13)', () => {
  let queue: Queue;

  beforeAll(() => {
    queue = new Queue('FAIR_SPEC', { connection: redisOptionsFromUrl(process.env.REDIS_URL!), prefix: 'punctual-test-fair' });
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it("paces a tenant's burst due at one instant from its second's start, and lets another tenant's jobs due then run at once", async () => {
    const instant = SECOND + 300;
    const burst = Array.from({ length: 6 }, (_, i) => due('tenant-a', instant, i));
    const other = Array.from({ length: 2 }, (_, i) => due('tenant-b', instant, i));
    // 10 a second: the n-th of a second is runnable no sooner than (n - 1) × 100 ms after the second began.
    const shares = await fairShares(queue, [...burst, ...other], SECOND - 60_000, 10);

    expect(shares.map((s) => s.priority)).toEqual([1, 2, 3, 4, 5, 6, 1, 2]);
    expect(shares.map((s) => s.releaseAt - SECOND)).toEqual([300, 300, 300, 300, 400, 500, 300, 300]);

    // A later enqueue of the same tenant's jobs due in that second continues its ranks and its pace.
    const more = await fairShares(queue, [due('tenant-a', instant, 6)], SECOND - 60_000, 10);
    expect(more).toEqual([{ priority: 7, releaseAt: SECOND + 600 }]);
  });

  it('never releases a job before it is due, and without a pace releases each when due', async () => {
    const second = SECOND + 10_000;
    const spread = [0, 250, 500, 750].map((offset, i) => due('tenant-c', second + offset, i));
    const paced = await fairShares(queue, spread, SECOND - 60_000, 10);
    expect(paced.map((s) => s.releaseAt - second)).toEqual([0, 250, 500, 750]);

    const unpaced = await fairShares(
      queue,
      Array.from({ length: 5 }, (_, i) => due('tenant-d', second, i)),
      SECOND - 60_000,
      0,
    );
    expect(unpaced.map((s) => s.releaseAt)).toEqual(Array(5).fill(second));
    expect(unpaced.map((s) => s.priority)).toEqual([1, 2, 3, 4, 5]);
  });

  it('ranks overdue jobs in the current second, paced from its start, never before they were due', async () => {
    const now = SECOND + 20_500;
    const overdue = Array.from({ length: 3 }, (_, i) => due('tenant-e', SECOND + 15_000, i));
    const shares = await fairShares(queue, overdue, now, 10);
    expect(shares.map((s) => s.priority)).toEqual([1, 2, 3]);
    expect(shares.map((s) => s.releaseAt - (SECOND + 20_000))).toEqual([0, 100, 200]);
  });
});
