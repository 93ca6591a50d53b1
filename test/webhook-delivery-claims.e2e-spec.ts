import { ClaimedDelivery, WebhookDeliveriesRepository } from '@app/database';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { subscribe } from './support/webhooks';

/** Long enough that no machine is too slow to look at a live claim; the renewal then shortens it. */
const LIVE_LEASE_MS = 10_000;
const SHORT_LEASE_MS = 300;

describe("A delivery attempt's claim is fenced and leased like an action's", () => {
  let api: ApiTestApp;
  let deliveries: WebhookDeliveriesRepository;
  const receiver = new HttpReceiver();

  beforeAll(async () => {
    await receiver.start();
    api = await startCleanApiApp();
    deliveries = api.app.get(WebhookDeliveriesRepository);
  });
  afterAll(async () => {
    await api?.close();
    await receiver.stop();
  });

  /** A pending delivery no worker takes: a test event's, with no worker running. */
  async function pendingDelivery(): Promise<string> {
    const { id } = await subscribe(api.client, receiver.url(), { events: ['action.failed'] });
    return (await api.client.post(`/webhooks/${id}/test`)).body.id as string;
  }

  const claimed = async (id: string): Promise<ClaimedDelivery> =>
    waitUntil(`delivery ${id} to be claimable`, async () => {
      const claim = await deliveries.claim(id, 0, LIVE_LEASE_MS);
      return claim !== null && !('dueInMs' in claim) ? claim : undefined;
    });

  it('a live claim keeps others out while it is renewed; once it lapses a new claim fences the old one off', async () => {
    const id = await pendingDelivery();
    const first = await claimed(id);
    expect(await deliveries.claim(id, 0, LIVE_LEASE_MS)).toEqual({ dueInMs: expect.any(Number) });
    // Renewed, for a short lease this time, which then lapses as a dead worker's would.
    expect(await deliveries.renew(id, first.claimToken, SHORT_LEASE_MS)).toBe(true);

    const second = await claimed(id);
    expect(second.claimToken).not.toBe(first.claimToken);
    expect(await deliveries.renew(id, first.claimToken, SHORT_LEASE_MS)).toBe(false);
    // The lapsed attempt's answer is refused; the attempt that holds the claim records its own.
    expect(await deliveries.record(id, first.claimToken, { kind: 'delivered', statusCode: 200 })).toEqual({ recorded: false, retry: null });
    const failed = { kind: 'failed', statusCode: 503, error: 'HTTP 503', retryInMs: 60_000 } as const;
    const recorded = await deliveries.record(id, second.claimToken, failed);
    expect(recorded).toEqual({ recorded: true, retry: { id, attempts: 1, nextAttemptAt: expect.any(Date), target: expect.any(String) } });
    // Recorded once: the same token cannot record the attempt again.
    expect(await deliveries.record(id, second.claimToken, failed)).toEqual({ recorded: false, retry: null });
  });
});
