import { SignedHttp } from '@punctual/client';
import { ROTATED_KEY, ReceivedCall, TEST_KEY, TestHttp, waitUntil } from '@app/testing';
import { useRunningStack } from './support/running-stack';
import { verifiedEvent } from './support/webhooks';

const HOUR = 3_600_000;
/** The key of a Standard Webhooks verifier for calls keyed with an API key's secret (its UTF-8 bytes). */
const verifierKey = (secret: string) => Buffer.from(secret, 'utf8').toString('base64');

describe("Whose signature: an action's calls and events are signed by the key that last set what they send", () => {
  const stack = useRunningStack();
  let other: TestHttp;

  beforeAll(() => {
    other = new SignedHttp<any>({ baseUrl: stack.api.client.baseUrl, ...ROTATED_KEY });
  });

  async function createLater(path: string, extra: object = {}) {
    const response = await stack.api.client.post('/actions', {
      action: 'HTTP_REQUEST',
      executionTime: Date.now() + HOUR,
      data: { url: stack.receiver.url(path), body: { from: 'creator' } },
      ...extra,
    });
    expect(response.status).toBe(201);
    return response.body;
  }

  const callTo = (path: string) => waitUntil(`a call to ${path}`, () => stack.receiver.callsTo(path)[0]);
  const verifiedBy = (call: ReceivedCall, secret: string) => verifiedEvent(call, verifierKey(secret));

  it("another key that replaces the data has the call signed with its own secret, never the creator's", async () => {
    const action = await createLater('/created');
    const patched = await other.patch(`/actions/${action.id}`, {
      data: { url: stack.receiver.url('/chosen-by-other'), body: { from: 'other' } },
      executionTime: Date.now(),
    });
    expect(patched.status).toBe(200);
    const call = await callTo('/chosen-by-other');
    expect(verifiedBy(call, ROTATED_KEY.secret)).toEqual({ from: 'other' });
    expect(() => verifiedBy(call, TEST_KEY.secret)).toThrow('No matching signature found');
  });

  it('a change that leaves the data alone keeps the signature of the key that set it', async () => {
    const action = await createLater('/kept');
    expect((await other.patch(`/actions/${action.id}`, { metadata: { touched: true }, executionTime: Date.now() })).status).toBe(200);
    const call = await callTo('/kept');
    expect(verifiedBy(call, TEST_KEY.secret)).toEqual({ from: 'creator' });
  });

  it('callback events are signed by the key that set the callback URL, and a cancel tells it action.canceled', async () => {
    const action = await createLater('/never-called');
    expect((await other.patch(`/actions/${action.id}`, { callbackUrl: stack.receiver.url('/callback') })).status).toBe(200);
    expect((await stack.api.client.post(`/actions/${action.id}/cancel`, { note: 'no longer needed' })).status).toBe(200);
    const call = await callTo('/callback');
    expect(verifiedBy(call, ROTATED_KEY.secret)).toMatchObject({
      type: 'action.canceled',
      data: { action: { id: action.id, status: 'CANCELED' }, occurrence: 1, attempt: 0, note: 'canceled: no longer needed' },
    });
    expect(() => verifiedBy(call, TEST_KEY.secret)).toThrow('No matching signature found');
    expect(stack.receiver.callsTo('/never-called')).toHaveLength(0);
  });
});
