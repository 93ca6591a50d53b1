import { HttpReceiver, waitUntil } from '@app/testing';
import { BenchClient } from '../bench-client';
import { Stores } from '../harness';
import { CpuPerJob, throughput } from './scheduling';
import { System, punctual } from './systems';

export interface WebhookFigures {
  /** No-op actions fulfilled per second with one subscription on every event, beside none. */
  jobsPerSec: number;
  withoutWebhooksJobsPerSec: number;
  /** CPU time per action from the due time until the last action ended, with the subscription and without: the deliveries run during the burst are in the first. */
  cpuMsPerJob: CpuPerJob;
  withoutWebhooksCpuMsPerJob: CpuPerJob;
  /** Events the receiver got (distinct webhook-ids), of one per action. */
  eventsReceived: number;
  eventsLost: number;
  /** From the last action's completion until the receiver had every event. */
  allDeliveredAfterSec: number;
}

/**
 * Throughput of no-op actions with one subscription to every action event at a receiver on this
 * machine, beside the same burst with no subscription; then counts the events that arrived.
 */
export async function webhookThroughput(client: BenchClient, stores: Stores, workers: number, count: number): Promise<WebhookFigures> {
  const receiver = await new HttpReceiver().start();
  try {
    const without = await throughput(punctual(client, stores), workers, count);
    const base = punctual(client, stores, { name: 'Punctual + webhooks' });
    const actionIdOf = (body: string) => (JSON.parse(body) as { data: { action?: { id: string } } }).data.action?.id ?? '';
    let received = 0;
    let allDeliveredAfterSec = 0;
    /** The burst's actions: the ones left in the table once the warm-up's were removed. */
    let burst: Set<string> | undefined;
    const delivered = new Set<string>();
    let read = 0;
    /** Distinct events of the burst's actions at the receiver, each call read once: the receiver's whole list again each poll would cost the machine more than the deliveries. */
    const countReceived = async () => {
      burst ??= new Set((await stores.db.query<{ id: string }>(`SELECT id FROM actions`)).rows.map((row) => row.id));
      for (; read < receiver.calls.length; read++) {
        const call = receiver.calls[read];
        if (burst.has(actionIdOf(call.body))) delivered.add(String(call.headers['webhook-id']));
      }
      received = delivered.size;
      return received >= count;
    };
    const withSubscription: System = {
      ...base,
      async start(workerCount) {
        const running = await base.start(workerCount);
        const res = await client.post('/webhooks', {
          url: receiver.url(),
          events: ['action.succeeded', 'action.attempt_failed', 'action.failed', 'action.no_action'],
        });
        if (res.status !== 201) throw new Error(`POST /webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
        return {
          ...running,
          // The workers deliver the events after the actions completed: they stop once every event arrived (or after 2 min).
          stop: async () => {
            const since = Date.now();
            await waitUntil('every event at the receiver', countReceived, 120_000, 100).catch(() => undefined);
            allDeliveredAfterSec = Math.round((Date.now() - since) / 100) / 10;
            await running.stop();
          },
        };
      },
    };
    const withWebhooks = await throughput(withSubscription, workers, count);
    return {
      jobsPerSec: withWebhooks.jobsPerSec,
      withoutWebhooksJobsPerSec: without.jobsPerSec,
      cpuMsPerJob: withWebhooks.cpuMsPerJob,
      withoutWebhooksCpuMsPerJob: without.cpuMsPerJob,
      eventsReceived: received,
      eventsLost: count - received,
      allDeliveredAfterSec,
    };
  } finally {
    await receiver.stop();
  }
}
