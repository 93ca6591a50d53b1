import { INestApplicationContext } from '@nestjs/common';
import { MqttClient, connectAsync } from 'mqtt';
import { randomUUID } from 'node:crypto';
import { waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { MQTT_TENANTS_URL, mqttTenantsUrlAs } from './support/brokers';
import { SiblingApp } from './support/sibling-app';
import { startWorker } from './support/worker-test-app';

/**
 * MESSAGE over a Mosquitto that tenants share, set up as config/mosquitto says: no anonymous
 * clients, a user per sibling app that reads only its own topics, and Punctual's workers a user of
 * their own. What keeps tenants apart there is the broker's ACL: this checks that it does.
 */
describe('MQTT with a user per tenant: a tenant neither reads nor sends on another tenant’s topics (contract §8, §16)', () => {
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let billing: SiblingApp;
  let ledger: MqttClient;
  const run = randomUUID().slice(0, 8);
  // Topics of config/mosquitto/acl's users: billing/<pattern> and its reply billing/<pattern>/reply, ledger/… the same.
  const renew = `billing/renew-${run}`;
  const renewed = `billing/renewed-${run}`;
  const ledgerMarker = `ledger/marker-${run}`;
  const seenByLedger: string[] = [];

  beforeAll(async () => {
    const env = { MESSAGE_TRANSPORTS: `mqtt=${mqttTenantsUrlAs('punctual')}` };
    api = await startCleanApiApp(undefined, env);
    worker = await startWorker({ env });
    billing = await new SiblingApp(mqttTenantsUrlAs('billing'), renew, renewed, { reply: () => ({ renewed: true }) }).start();
    // The ledger tenant's own client, asking for everything: its own topics and billing's.
    ledger = await connectAsync(mqttTenantsUrlAs('ledger'));
    ledger.on('message', (topic) => seenByLedger.push(topic));
    await ledger.subscribeAsync(['billing/#', 'ledger/#']);
  });
  afterAll(async () => {
    await ledger?.endAsync();
    await billing?.stop();
    await worker?.close();
    await api?.close();
  });

  async function create(data: Record<string, unknown>): Promise<string> {
    const response = await api.client.post('/actions', { action: 'MESSAGE', executionTime: Date.now(), data: { transport: 'mqtt', ...data } });
    expect(response.status).toBe(201);
    return response.body.id;
  }
  const completed = (id: string) =>
    waitUntil(`action ${id} to complete`, async () => ((await api.client.get(`/actions/${id}`)).body.status === 'COMPLETED' ? true : null), 20_000);

  it('refuses a client without a user', async () => {
    await expect(connectAsync(MQTT_TENANTS_URL, { reconnectPeriod: 0 })).rejects.toThrow(/Not authorized/i);
  });

  it("the worker's message and its reply reach billing only: ledger, subscribed to billing/#, gets neither", async () => {
    await completed(await create({ pattern: renew, payload: { account: 'acc-1' }, timeoutMs: 10_000 }));
    expect(billing.received.map((r) => r.pattern)).toEqual([renew]);
    // Sent after, on the same connection, to a topic ledger may read: once it is there, anything of billing's would be too.
    await completed(await create({ pattern: ledgerMarker, expectReply: false }));
    await waitUntil('the marker at ledger', () => seenByLedger.includes(ledgerMarker) || null, 20_000);
    expect(seenByLedger).toEqual([ledgerMarker]);
  });

  it("ledger can neither send billing a message nor answer for it: the broker drops what it publishes on billing's topics", async () => {
    const before = billing.received.length;
    // QoS 1: once the broker acknowledged them, it has routed or dropped them.
    await ledger.publishAsync(renewed, JSON.stringify({ pattern: renewed, data: { forged: true } }), { qos: 1 });
    await ledger.publishAsync(`${renew}/reply`, JSON.stringify({ id: 'any', response: { forged: true }, isDisposed: true }), { qos: 1 });
    await completed(await create({ pattern: renewed, expectReply: false }));
    await waitUntil('the worker’s event at billing', () => billing.received.length > before || null, 20_000);
    expect(billing.received.slice(before).map((r) => r.data.forged)).toEqual([undefined]);
  });
});
