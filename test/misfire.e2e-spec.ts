import { waitUntil } from '@app/testing';
import { useRunningStack } from './support/running-stack';

const HOUR = 3_600_000;

describe('Misfire policies: a recurring action whose workers were down for three hours', () => {
  const stack = useRunningStack();

  it.each([
    // policy, runs now, executions left afterwards
    ['RUN_ONCE', 2, 8],
    ['RUN_ALL', 4, 6],
    ['SKIP', 1, 9],
  ])('%s: %i run(s), then the first hourly time after now', async (misfirePolicy, runs, left) => {
    const first = Date.now() - 3 * HOUR - 5 * 60_000; // due 3 h 5 min ago: three more hourly times have passed since
    const path = `/misfire-${misfirePolicy}`;
    const body = {
      action: 'HTTP_REQUEST',
      executionTime: first,
      data: { url: stack.receiver.url(path) },
      repeat: true,
      frequency: 'HOURLY',
      executionRemainder: 10,
      misfirePolicy,
    };
    const action = (await stack.api.client.post('/actions', body)).body;
    expect(action.misfirePolicy).toBe(misfirePolicy);
    const settled = await waitUntil('the action to wait for its next hourly time', async () => {
      const current = (await stack.api.client.get(`/actions/${action.id}`)).body;
      return current.status === 'PENDING' && new Date(current.executionTime).getTime() > Date.now() ? current : null;
    });
    expect(stack.receiver.callsTo(path)).toHaveLength(runs);
    expect(settled.executionRemainder).toBe(left);
    expect(settled.executionTime).toBe(new Date(first + 4 * HOUR).toISOString());
    expect(new Set(stack.receiver.callsTo(path).map((c) => c.headers['idempotency-key'])).size).toBe(runs);
  });
});
