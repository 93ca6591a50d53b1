import { ActionQueues, jobIdFor } from '@app/scheduling';
import { waitUntil } from '@app/testing';
import { useRunningStack } from './support/running-stack';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` };

/** No attempt starts before the action's nextAttemptAt on Postgres's clock, whatever reaches the queue. */
describe('Never early', () => {
  const stack = useRunningStack();

  const httpAction = (dueAt: number, path: string) => ({ action: 'HTTP_REQUEST', executionTime: dueAt, data: { url: stack.receiver.url(path) } });
  const jobOf = async (action: { id: string; action: string }) => {
    const [row] = await stack.api.db.query('SELECT id, occurrence, retry_count AS "retryCount", revision FROM actions WHERE id = $1', [action.id]);
    return stack.api.app.get(ActionQueues).queueFor(action.action).getJob(jobIdFor(row));
  };

  it('the queue admin UI is read-only: promoting a delayed job is refused', async () => {
    const action = (await stack.api.client.post('/actions', httpAction(Date.now() + 60_000, '/ui'))).body;
    const job = await jobOf(action);
    const promote = await fetch(`${stack.api.client.baseUrl}/admin/queues/api/queues/HTTP_REQUEST/${job!.id}/promote`, { method: 'PUT', headers: ADMIN });
    expect(promote.status).toBe(405);
    expect(await job!.getState()).toBe('delayed');
  });

  it('a job promoted by hand in the queue waits for the due time: the call arrives on time, not before', async () => {
    const dueAt = Date.now() + 1500;
    const action = (await stack.api.client.post('/actions', httpAction(dueAt, '/promoted'))).body;
    await (await jobOf(action))!.promote();
    const [call] = await waitUntil('the call', () => (stack.receiver.callsTo('/promoted').length ? stack.receiver.callsTo('/promoted') : null), 10_000);
    expect(call.at).toBeGreaterThanOrEqual(dueAt);
    expect(stack.receiver.callsTo('/promoted')).toHaveLength(1);
    const history = (await stack.api.client.get(`/actions/${action.id}/history`)).body;
    expect(history.filter((h: { to: string }) => h.to === 'IN_PROGRESS')).toHaveLength(1);
  });
});
