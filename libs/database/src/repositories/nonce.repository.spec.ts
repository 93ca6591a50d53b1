import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options';
import { NonceRepository } from './nonce.repository';

const FIVE_MINUTES = 300_000;

describe('NonceRepository (real Postgres)', () => {
  const dataSource = new DataSource(dataSourceOptions(process.env.DATABASE_URL!));
  const nonces = new NonceRepository(dataSource);
  // A key id of its own per run, so rows from other specs never count here.
  const keyId = `spec-${randomUUID()}`;
  beforeAll(() => dataSource.initialize());
  afterAll(async () => {
    await dataSource.query(`DELETE FROM accepted_nonces WHERE key_id LIKE 'spec-%'`);
    await dataSource.destroy();
  });

  it('records a nonce once per key', async () => {
    const nonce = randomUUID();
    await expect(nonces.accept(keyId, nonce, FIVE_MINUTES)).resolves.toBe(true);
    await expect(nonces.accept(keyId, nonce, FIVE_MINUTES)).resolves.toBe(false);
    await expect(nonces.accept(`${keyId}-other`, nonce, FIVE_MINUTES)).resolves.toBe(true);
  });

  it('keeps a nonce until its expiry on the Postgres clock, then lets it be used again', async () => {
    const nonce = randomUUID();
    await nonces.accept(keyId, nonce, FIVE_MINUTES);
    const [{ seconds }] = await dataSource.query(
      `SELECT extract(epoch FROM expires_at - now()) AS seconds FROM accepted_nonces WHERE key_id = $1 AND nonce = $2`,
      [keyId, nonce],
    );
    expect(Number(seconds)).toBeGreaterThan(295);
    expect(Number(seconds)).toBeLessThanOrEqual(300);

    // Expired but not purged yet: the record is taken over rather than refusing a legitimate use.
    await dataSource.query(`UPDATE accepted_nonces SET expires_at = now() - interval '1 second' WHERE key_id = $1 AND nonce = $2`, [keyId, nonce]);
    await expect(nonces.accept(keyId, nonce, FIVE_MINUTES)).resolves.toBe(true);
    await expect(nonces.accept(keyId, nonce, FIVE_MINUTES)).resolves.toBe(false);
  });

  it("commits without waiting for the WAL flush in that transaction only, leaving the connection's other writes durable", async () => {
    const oneConnection = new DataSource({ ...dataSourceOptions(process.env.DATABASE_URL!), extra: { max: 1 } });
    await oneConnection.initialize();
    try {
      await expect(new NonceRepository(oneConnection).accept(keyId, randomUUID(), FIVE_MINUTES)).resolves.toBe(true);
      await expect(oneConnection.query(`SHOW synchronous_commit`)).resolves.toEqual([{ synchronous_commit: 'on' }]);
    } finally {
      await oneConnection.destroy();
    }
  });

  it('records concurrent nonces in one shared statement, and lets only the first copy of each through', async () => {
    const distinct = Array.from({ length: 10 }, () => randomUUID());
    const submitted = [...distinct, ...distinct, ...distinct];
    const results = await Promise.all(submitted.map((nonce) => nonces.accept(keyId, nonce, FIVE_MINUTES)));
    expect(results).toEqual([...distinct.map(() => true), ...distinct.map(() => false), ...distinct.map(() => false)]);

    // Rows written by one statement share its transaction id: the first nonce went out alone, at
    // once, and all that arrived while it was being written went out together in the next one.
    const [{ statements }] = await dataSource.query(
      `SELECT count(DISTINCT xmin::text)::int AS statements FROM accepted_nonces WHERE key_id = $1 AND nonce = ANY($2)`,
      [keyId, distinct],
    );
    expect(statements).toBe(2);
  });
});
