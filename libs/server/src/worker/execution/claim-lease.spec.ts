import { ActionEntity } from '@app/database';
import { InMemoryPorts } from '@app/testing';
import { ClaimLease, failureMessage } from './claim-lease';

const LEASE_MS = 900;
const quiet = { log: () => undefined, error: () => undefined, warn: jest.fn() };

/** A lease on a freshly claimed action, its timers on jest's clock. */
async function leased() {
  const ports = new InMemoryPorts();
  const stored = await ports.stored('SPEC_TYPE');
  const claim = await ports.store.claim(stored.id, stored.revision, 'SPEC_TYPE', LEASE_MS);
  const action = (claim as { action: ActionEntity }).action;
  const onRelease = jest.fn();
  const lease = new ClaimLease({ name: 'the attempt', renew: (leaseMs) => ports.store.renew(action, leaseMs) }, LEASE_MS, quiet, onRelease);
  return { ports, action, lease, onRelease };
}

describe('ClaimLease', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('renews the claim every third of a lease for as long as the attempt runs', async () => {
    const { ports, action, lease } = await leased();
    ports.clock.advance(5 * LEASE_MS);
    await jest.advanceTimersByTimeAsync(5 * LEASE_MS);
    expect(ports.store.calls.renew).toBe(15);
    expect(ports.store.row(action.id)!.claimedUntil!.getTime()).toBe(ports.clock.now().getTime() + LEASE_MS);
    expect(lease.signal.aborted).toBe(false);
    lease.release();
  });

  it('stops the attempt as soon as a renewal finds the claim taken over, and renews no more', async () => {
    const { ports, action, lease } = await leased();
    ports.store.update(action.id, { claimToken: 'another-worker' });
    await jest.advanceTimersByTimeAsync(LEASE_MS / 3);
    expect(lease.signal.aborted).toBe(true);
    expect((lease.signal.reason as Error).message).toMatch(/taken over by another worker/);
    await jest.advanceTimersByTimeAsync(5 * LEASE_MS);
    expect(ports.store.calls.renew).toBe(1);
  });

  it('stops the attempt when no renewal got through for 80 % of a lease, not before', async () => {
    const { ports, lease } = await leased();
    ports.store.unavailable = true;
    await jest.advanceTimersByTimeAsync(0.8 * LEASE_MS - 1);
    expect(lease.signal.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(lease.signal.aborted).toBe(true);
    expect((lease.signal.reason as Error).message).toMatch(/could not be renewed for 720 ms \(connect ECONNREFUSED/);
  });

  it('moves the lapse on with each renewal that gets through', async () => {
    const { ports, lease } = await leased();
    await jest.advanceTimersByTimeAsync(2 * LEASE_MS);
    ports.store.unavailable = true;
    await jest.advanceTimersByTimeAsync(0.5 * LEASE_MS);
    expect(lease.signal.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(0.5 * LEASE_MS);
    expect(lease.signal.aborted).toBe(true);
  });

  it('keeps renewing after stop(), so the stopped attempt can still record its end; release() ends the renewals once', async () => {
    const { ports, lease, onRelease } = await leased();
    lease.stop(new Error('stopped by worker shutdown'));
    expect((lease.signal.reason as Error).message).toBe('stopped by worker shutdown');
    await jest.advanceTimersByTimeAsync(LEASE_MS);
    expect(ports.store.calls.renew).toBe(3);
    lease.release();
    lease.release();
    await jest.advanceTimersByTimeAsync(5 * LEASE_MS);
    expect(ports.store.calls.renew).toBe(3);
    expect(onRelease).toHaveBeenCalledTimes(1);
  });
});

describe('failureMessage', () => {
  it('says why the signal stopped the attempt when the fulfillment gave another reason', () => {
    const controller = new AbortController();
    expect(failureMessage(new Error('socket hang up'), controller.signal)).toBe('socket hang up');
    const reason = new Error('attempt stopped: its claim was taken over');
    controller.abort(reason);
    expect(failureMessage(new Error('aborted'), controller.signal)).toBe('attempt stopped: its claim was taken over: aborted');
    expect(failureMessage(reason, controller.signal)).toBe(reason.message);
  });
});
