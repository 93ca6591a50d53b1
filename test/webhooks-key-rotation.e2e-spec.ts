import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver, waitUntil } from '@app/testing';
import { ApiTestApp, startApiApp, startCleanApiApp } from './support/api-test-app';
import { subscribe, verifiedEvent } from './support/webhooks';
import { startWorker } from './support/worker-test-app';

describe('Rotating SECRET_KEY', () => {
  const oldKey = process.env.SECRET_KEY!;
  const newKey = Buffer.alloc(32, 9).toString('base64');
  const receiver = new HttpReceiver();
  let api: ApiTestApp | undefined;
  let worker: INestApplicationContext | undefined;

  beforeAll(() => receiver.start());
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await receiver.stop();
  });

  const storedCiphertext = async (db: ApiTestApp['db']) =>
    (await db.query(`SELECT secret_ciphertext FROM webhook_subscriptions`))[0].secret_ciphertext as string;

  it('encrypts every secret again with the new key when the API starts, and deliveries keep their signatures', async () => {
    api = await startCleanApiApp();
    const { id, secret } = await subscribe(api.client, receiver.url(), { events: ['webhook.test'] });
    const before = await storedCiphertext(api.db);
    await api.close();

    api = await startApiApp(undefined, { SECRET_KEY: `${newKey},${oldKey}` });
    const after = await storedCiphertext(api.db);
    expect(after.split('.')[1]).not.toBe(before.split('.')[1]);

    // The old key is gone everywhere: the worker opens the secret with the new one alone.
    worker = await startWorker({ env: { SECRET_KEY: newKey } });
    expect((await api.client.post(`/webhooks/${id}/test`)).status).toBe(202);
    const [call] = await waitUntil('the test event', () => (receiver.calls.length > 0 ? receiver.calls : null));
    expect(verifiedEvent(call, secret).type).toBe('webhook.test');
  });
});
