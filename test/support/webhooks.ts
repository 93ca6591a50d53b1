import { Webhook } from 'standardwebhooks';
import { ReceivedCall, TestHttp, waitUntil } from '@app/testing';

export interface Subscription {
  id: string;
  secret: string;
}

/** Subscribes `url` to `events` (every action event by default) and returns its id and secret. */
export async function subscribe(client: TestHttp, url: string, body: Record<string, unknown> = {}): Promise<Subscription> {
  const res = await client.post('/webhooks', {
    url,
    events: ['action.succeeded', 'action.attempt_failed', 'action.failed', 'action.no_action'],
    ...body,
  });
  if (res.status !== 201) throw new Error(`POST /webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.id, secret: res.body.secret };
}

/** The event of a received call, after checking its Standard Webhooks signature with the reference implementation. */
export function verifiedEvent(call: ReceivedCall, secret: string): { type: string; timestamp: string; data: Record<string, any> } {
  const headers = {
    'webhook-id': String(call.headers['webhook-id']),
    'webhook-timestamp': String(call.headers['webhook-timestamp']),
    'webhook-signature': String(call.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(call.body, headers) as { type: string; timestamp: string; data: Record<string, any> };
}

/** The subscription's deliveries once `done` holds for them. */
export async function deliveriesWhen(client: TestHttp, id: string, done: (items: any[]) => boolean, timeoutMs = 10_000): Promise<any[]> {
  return waitUntil(
    `deliveries of ${id}`,
    async () => {
      const items = (await client.get(`/webhooks/${id}/deliveries`)).body.items as any[];
      return done(items) ? items : null;
    },
    timeoutMs,
  );
}
