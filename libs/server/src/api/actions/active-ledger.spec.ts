import { ActiveLedger, HeldPlaces, TenantReading } from './active-ledger';

/** A read the test answers when it chooses, as storage would while the process goes on. */
function controlledReads() {
  const pending: ((reading: TenantReading) => void)[] = [];
  return {
    read: () => new Promise<TenantReading>((resolve) => pending.push(resolve)),
    answer: (active: number) => pending.shift()!({ limits: null, active }),
    get waiting() {
      return pending.length;
    },
  };
}

/** A ledger whose first read, at time 0, found `active` actions. */
async function ledgerThatRead(active: number) {
  const reads = controlledReads();
  const ledger = new ActiveLedger(reads.read, 1000);
  const read = ledger.fresh(0);
  reads.answer(active);
  await read;
  return { ledger, reads };
}

describe('ActiveLedger', () => {
  it('shares one read among the requests that ask during it, and reads again only once the last is old', async () => {
    const reads = controlledReads();
    const ledger = new ActiveLedger(reads.read, 1000);
    const asked = [ledger.fresh(0), ledger.fresh(10), ledger.fresh(20)];
    expect(reads.waiting).toBe(1);
    reads.answer(4);
    await Promise.all(asked);
    expect(ledger.active).toBe(4);
    await ledger.fresh(999);
    expect(reads.waiting).toBe(0);
    void ledger.fresh(1000);
    expect(reads.waiting).toBe(1);
  });

  it('counts held places at once, keeps those stored and forgets those given back', async () => {
    const { ledger } = await ledgerThatRead(2);
    const stored = new HeldPlaces(ledger, 3);
    const refused = new HeldPlaces(ledger, 1);
    ledger.hold(3);
    ledger.hold(1);
    expect(ledger.active).toBe(6);
    stored.keep();
    refused.release();
    // Settled places stay as they were settled, whatever comes after.
    stored.release();
    refused.keep();
    expect(ledger.active).toBe(5);
    ledger.free(2);
    expect(ledger.active).toBe(3);
  });

  it('errs on the side of fewer admissions when its own changes run beside a read, until the next read', async () => {
    const { ledger, reads } = await ledgerThatRead(5);
    ledger.hold(1);
    const second = ledger.fresh(1000);
    // Stored and freed while the read runs: the read may or may not see either.
    ledger.keep(1);
    ledger.free(1);
    ledger.hold(2);
    expect(ledger.active).toBe(7);
    reads.answer(5);
    await second;
    // The action stored is counted again on top of the read, the place freed taken as in it, and the held places still count.
    expect(ledger.active).toBe(8);
    const third = ledger.fresh(2000);
    reads.answer(5);
    await third;
    expect(ledger.active).toBe(7);
  });

  it('reads again at the next request after a read failed, instead of trusting a count it never had', async () => {
    let reads = 0;
    const ledger = new ActiveLedger(async () => {
      reads += 1;
      if (reads === 1) throw new Error('database unreachable');
      return { limits: null, active: 3 };
    }, 1000);
    await expect(ledger.fresh(0)).rejects.toThrow('database unreachable');
    await ledger.fresh(1);
    expect(reads).toBe(2);
    expect(ledger.active).toBe(3);
  });
});
