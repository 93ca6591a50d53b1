import { INestApplication, INestApplicationContext } from '@nestjs/common';
import { ClientProxy, ClientProxyFactory } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import { messageSignature, microserviceOptions } from '@punctual/client';
import { OTHER_TENANT_KEY, TEST_KEY, waitUntil } from '@app/testing';
import { AccountsStore } from '../examples/billing-app/src/accounts.store';
import { DOWNGRADE_PATTERN } from '../examples/billing-app/src/downgrade.handler';
import { startBillingApp } from '../examples/billing-app/src/start-billing-app';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { NATS_URL, ONE_TRUST_DOMAIN_NATS } from './support/nats';
import { startWorker } from './support/worker-test-app';

describe.each([
  ['Redis', process.env.REDIS_URL!, 'default'],
  ['NATS', NATS_URL, 'billing'],
])('The example billing app, against the real API and worker over %s', (_name, url, transportName) => {
  const env = { RPC_TRANSPORT_URL: url, MESSAGE_TRANSPORTS: `billing=${NATS_URL}`, ...ONE_TRUST_DOMAIN_NATS };
  let api: ApiTestApp;
  let worker: INestApplicationContext;
  let billing: INestApplication;
  let billingUrl: string;

  beforeAll(async () => {
    api = await startCleanApiApp(undefined, env);
    worker = await startWorker({ env });
    billing = await startBillingApp(
      { port: 0, punctualUrl: url, listenUrl: url, transportName, ...TEST_KEY, tenant: 'default', messageSecrets: [TEST_KEY.secret] },
      ['error'],
    );
    billingUrl = `http://127.0.0.1:${(billing.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await billing?.close();
    await worker?.close();
    await api?.close();
  });

  const post = async (path: string, body: unknown) =>
    (await fetch(billingUrl + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();

  it('schedules the downgrade over RPC, and receives it once, on time, with the idempotency key', async () => {
    const accountId = `acc-${randomUUID().slice(0, 8)}`;
    const endsAt = Date.now() + 1500;
    const started = await post('/trials', { accountId, endsAt });
    expect(started).toEqual({ accountId, actionId: expect.any(String), endsAt: new Date(endsAt).toISOString() });
    // Starting the same trial again finds the action scheduled the first time.
    expect((await post('/trials', { accountId, endsAt })).actionId).toBe(started.actionId);
    // Its status is not asserted: on a loaded machine the 1.5 s may already have passed.
    expect((await api.client.get(`/actions/${started.actionId}`)).body).toMatchObject({
      action: 'MESSAGE',
      executionTime: new Date(endsAt).toISOString(),
      metadata: { app: 'billing' },
    });

    const accounts = billing.get(AccountsStore);
    const [downgrade] = await waitUntil('the downgrade message', () => (accounts.downgrades.length > 0 ? accounts.downgrades : null), 10_000);
    expect(downgrade).toMatchObject({ accountId, idempotencyKey: `${started.actionId}:1`, scheduledFor: new Date(endsAt).toISOString() });
    expect(downgrade.at.getTime()).toBeGreaterThanOrEqual(endsAt);
    // Never early; late by no more than a loaded machine adds.
    expect(downgrade.at.getTime() - endsAt).toBeLessThan(3000);
    expect(await (await fetch(`${billingUrl}/accounts/${accountId}`)).json()).toEqual({ accountId, plan: 'free' });

    await waitUntil('the action to complete', async () => (await api.client.get(`/actions/${started.actionId}`)).body.status === 'COMPLETED');
    const history = (await api.client.get(`/actions/${started.actionId}/history`)).body;
    expect(history.at(-1).note).toContain(`"result":"downgraded"`);
    expect(accounts.downgrades).toHaveLength(1);
  });

  it('refuses, with an error reply, a message that is unsigned, forged or from another tenant, and changes nothing', async () => {
    const accountId = `acc-${randomUUID().slice(0, 8)}`;
    await post('/trials', { accountId, endsAt: Date.now() + 3_600_000 });
    const accounts = billing.get(AccountsStore);
    const downgradesBefore = accounts.downgrades.length;
    const timestamp = Math.floor(Date.now() / 1000);
    const fields = { idempotencyKey: `${randomUUID()}:1`, actionId: randomUUID(), occurrence: 1, scheduledFor: new Date().toISOString() };
    const payload = { accountId };
    const signedBy = (secret: string, tenant: string) => ({
      ...fields,
      payload,
      tenant,
      timestamp,
      signature: messageSignature(secret, fields.idempotencyKey, timestamp, payload),
    });
    const forgeries: [string, unknown][] = [
      ['the old, unsigned message', { ...fields, payload }],
      ['a guessed secret', signedBy('guessed-secret', 'default')],
      ["another tenant's key", signedBy(OTHER_TENANT_KEY.secret, 'team-b')],
      ["another tenant's key, claiming this tenant", signedBy(OTHER_TENANT_KEY.secret, 'default')],
      ['a changed payload', { ...signedBy(TEST_KEY.secret, 'default'), payload: { accountId, plan: 'free' } }],
    ];
    const client: ClientProxy = ClientProxyFactory.create(microserviceOptions(url));
    try {
      for (const [what, data] of forgeries) {
        const reply = firstValueFrom(client.send(DOWNGRADE_PATTERN, data));
        await expect(reply).rejects.toMatchObject({ message: expect.stringMatching(/^Refused: /) });
        expect({ what, plan: accounts.planOf(accountId) }).toEqual({ what, plan: 'pro-trial' });
      }
    } finally {
      await client.close();
    }
    expect(accounts.downgrades).toHaveLength(downgradesBefore);
    expect(await (await fetch(`${billingUrl}/accounts/${accountId}`)).json()).toEqual({ accountId, plan: 'pro-trial' });
  });
});
