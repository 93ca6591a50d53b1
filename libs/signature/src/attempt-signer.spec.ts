import { Webhook } from 'standardwebhooks';
import { loadConfig } from '@app/config';
import { TenantsRepository } from '@app/database';
import { Clock } from '@app/domain';
import { TEST_KEY } from '@app/testing';
import { AttemptSigner } from './attempt-signer';
import { KeyRegistry } from './key-registry';
import { SigningKeys } from './signing-keys';

describe('AttemptSigner (context.sign)', () => {
  // The keys of API_KEYS alone (the test environment's): none of these cases reads a key from Postgres.
  const signer = new AttemptSigner(new SigningKeys(new KeyRegistry(loadConfig(), null as unknown as TenantsRepository)), new Clock());
  const receiverOf = (secret: string) => new Webhook(Buffer.from(secret, 'utf8').toString('base64'));
  const attempt = { tenantId: 'default', signingKeyId: TEST_KEY.keyId, idempotencyKey: 'a1b2:3' };

  it('signs a body per Standard Webhooks with the key that set the data, the idempotency key as webhook-id, as HTTP_REQUEST does', async () => {
    const headers = await signer.sign(attempt, '{"a":1}');
    expect(headers['webhook-id']).toBe('a1b2:3');
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(receiverOf(TEST_KEY.secret).verify('{"a":1}', { ...headers })).toEqual({ a: 1 });
    expect(() => receiverOf(TEST_KEY.secret).verify('{"a":2}', { ...headers })).toThrow();
  });

  it("falls back to the tenant's oldest key, and never signs with another tenant's key", async () => {
    const unrecorded = await signer.sign({ ...attempt, signingKeyId: null }, '');
    expect(() => receiverOf(TEST_KEY.secret).verify('', { ...unrecorded })).not.toThrow();
    const foreign = await signer.sign({ ...attempt, signingKeyId: 'other-tenant-key' }, '');
    expect(() => receiverOf('other-tenant-secret-0123').verify('', { ...foreign })).toThrow();
    expect(() => receiverOf(TEST_KEY.secret).verify('', { ...foreign })).not.toThrow();
  });
});
