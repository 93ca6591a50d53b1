import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { KeyRing, loadConfig } from '@app/config';
import { TenantsRepository, dataSourceOptions } from '@app/database';
import { KeyRegistry } from './key-registry';
import { NoSigningKeyError, SigningKeys } from './signing-keys';

/**
 * Against real Postgres: the keys of API_KEYS (test-env.ts: test-key and rotated-key of `default`,
 * other-tenant-key of `team-b`) and keys made at run time in tenants of this run's own.
 */
describe('SigningKeys (real Postgres for run-time keys)', () => {
  const config = loadConfig();
  const ring = new KeyRing(config.secretKeys);
  const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL!));
  const tenants = new TenantsRepository(dataSource);
  let registry: KeyRegistry;
  let signing: SigningKeys;
  let reads: jest.SpyInstance;

  beforeAll(async () => {
    await dataSource.initialize();
    await tenants.ensure(['default', 'team-b']);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(async () => {
    registry = new KeyRegistry(config, tenants);
    signing = new SigningKeys(registry);
    await registry.onModuleInit();
    reads = jest.spyOn(tenants, 'activeKeysOf');
  });
  afterEach(() => reads.mockRestore());

  /** A tenant of its own, so that no other spec's keys are in it. */
  async function newTenant(): Promise<string> {
    const id = `sk-${randomUUID().slice(0, 8)}`;
    await tenants.create(id, { maxActiveActions: null, createRate: null, maxConcurrency: null }, null);
    return id;
  }
  async function newKey(tenant: string): Promise<{ keyId: string; secret: string }> {
    const key = { keyId: `key_${randomUUID().replace(/-/g, '').slice(0, 20)}`, secret: randomUUID() };
    await tenants.addKey(tenant, key.keyId, ring.encrypt(key.secret));
    return key;
  }

  it('signs with the key that set the field, reading nothing when this process knows it', async () => {
    await expect(signing.keyFor({ tenantId: 'default', signingKeyId: 'rotated-key' })).resolves.toEqual({
      keyId: 'rotated-key',
      secret: 'rotated-secret-9876543210',
    });
    const tenant = await newTenant();
    const key = await newKey(tenant);
    await registry.onModuleInit();
    await expect(signing.keyFor({ tenantId: tenant, signingKeyId: key.keyId })).resolves.toEqual(key);
    expect(reads).not.toHaveBeenCalled();
  });

  it('signs at once with a key made since the last refresh, read from Postgres once', async () => {
    const tenant = await newTenant();
    const older = await newKey(tenant);
    await registry.onModuleInit();
    const made = await newKey(tenant);
    await expect(signing.keyFor({ tenantId: tenant, signingKeyId: made.keyId })).resolves.toEqual(made);
    await expect(signing.keyFor({ tenantId: tenant, signingKeyId: made.keyId })).resolves.toEqual(made);
    expect(reads).toHaveBeenCalledTimes(1);
    await expect(signing.keyFor({ tenantId: tenant, signingKeyId: null })).resolves.toEqual(older);
  });

  it("a revoked key gives way to the tenant's oldest remaining run-time key, by creation", async () => {
    const tenant = await newTenant();
    const first = await newKey(tenant);
    const second = await newKey(tenant);
    const third = await newKey(tenant);
    await tenants.revokeKey(tenant, first.keyId);
    await registry.onModuleInit();
    await expect(signing.keyFor({ tenantId: tenant, signingKeyId: first.keyId })).resolves.toEqual(second);
    await expect(signing.keyFor({ tenantId: tenant, signingKeyId: third.keyId })).resolves.toEqual(third);
  });

  it("API_KEYS keys of the tenant count as older than any run-time key, in the order listed; another tenant's never sign", async () => {
    await newKey('team-b');
    await registry.onModuleInit();
    await expect(signing.keyFor({ tenantId: 'team-b', signingKeyId: 'key_retired' })).resolves.toEqual({
      keyId: 'other-tenant-key',
      secret: 'other-tenant-secret-0123',
    });
    await expect(signing.keyFor({ tenantId: 'default', signingKeyId: 'key_retired' })).resolves.toMatchObject({ keyId: 'test-key' });
    await expect(signing.keyFor({ tenantId: 'team-b', signingKeyId: 'test-key' })).resolves.toMatchObject({ keyId: 'other-tenant-key' });
  });

  it('remembers a key found gone, so its actions do not read Postgres on every attempt', async () => {
    const tenant = await newTenant();
    const gone = await newKey(tenant);
    const kept = await newKey(tenant);
    await tenants.revokeKey(tenant, gone.keyId);
    await registry.onModuleInit();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect(signing.keyFor({ tenantId: tenant, signingKeyId: gone.keyId })).resolves.toEqual(kept);
    }
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('a tenant with no key left: refused with an error naming the tenant and no key material, until a key is made', async () => {
    const tenant = await newTenant();
    const revoked = await newKey(tenant);
    await tenants.revokeKey(tenant, revoked.keyId);
    await registry.onModuleInit();
    const refusal = signing.keyFor({ tenantId: tenant, signingKeyId: revoked.keyId });
    await expect(refusal).rejects.toThrow(NoSigningKeyError);
    await expect(refusal).rejects.toThrow(`tenant "${tenant}" has no API key left to sign with`);
    await expect(refusal).rejects.not.toThrow(revoked.secret);
    const made = await newKey(tenant);
    await expect(signing.keyFor({ tenantId: tenant, signingKeyId: revoked.keyId })).resolves.toEqual(made);
  });
});
