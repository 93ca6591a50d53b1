import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { postgresGroupCommit } from './postgres-group-commit';
import { preparedQuery } from './prepared-query';
import { UnnestColumns } from './unnest-columns';

/** A request nonce to record for its key, for as long as a signature carrying it could still verify. */
interface NonceUse {
  keyId: string;
  nonce: string;
  ttlMs: number;
}

const NONCE_COLUMNS = new UnnestColumns<NonceUse>([
  ['key_id', 'varchar', (n) => n.keyId],
  ['nonce', 'varchar', (n) => n.nonce],
  ['ttl_ms', 'integer', (n) => n.ttlMs],
]);

/**
 * Records each nonce unless an unexpired record of it exists; a record that has expired but is
 * not purged yet is taken over. Rows are locked in key order, so two batches that share nonces
 * (a replay racing its original on another API process) wait for each other instead of deadlocking.
 * The expiry is on Postgres's clock, the one the purge compares against.
 *
 * The statement commits without waiting for its WAL flush (`synchronous_commit` off for this
 * transaction only), which takes a flush off the path of every signed request. The nonce is still
 * as durable as what the request does: the request's own write commits after it and waits for the
 * flush, which covers the nonce's earlier commit record. Other sessions see the row at once either
 * way, so racing copies still meet on the primary key. Only a crash of Postgres itself can lose the
 * nonces of the last fraction of a second, and then only those of requests that wrote nothing.
 */
const ACCEPT_NONCES_SQL = `INSERT INTO accepted_nonces (key_id, nonce, expires_at)
  SELECT n.key_id, n.nonce, now() + n.ttl_ms * interval '1 millisecond'
  FROM ${NONCE_COLUMNS.rows('n')}, (SELECT set_config('synchronous_commit', 'off', true)) AS commit_without_flush
  ORDER BY n.key_id, n.nonce
  ON CONFLICT (key_id, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE accepted_nonces.expires_at < now()
  RETURNING key_id, nonce`;

/**
 * Accepted request nonces: the record that refuses a replayed request. It lives in Postgres, with
 * everything else that must survive, so a Redis outage or reset cannot make a used nonce new again.
 */
@Injectable()
export class NonceRepository {
  // Every signed request records its nonce: concurrent verifications share one statement and one commit.
  private readonly uses = postgresGroupCommit<NonceUse, boolean>((uses) => this.acceptMany(uses));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records the nonce for its key unless it is already recorded and unexpired; false for a replay. */
  accept(keyId: string, nonce: string, ttlMs: number): Promise<boolean> {
    return this.uses.submit({ keyId, nonce, ttlMs: Math.max(0, Math.ceil(ttlMs)) });
  }

  private async acceptMany(uses: NonceUse[]): Promise<boolean[]> {
    // A nonce twice in one batch (racing copies of one request) is sent once: the first copy takes
    // it. Postgres would refuse a statement that touches the same row twice.
    const firstUse = new Map<string, NonceUse>();
    for (const use of uses) {
      const key = identity(use.keyId, use.nonce);
      if (!firstUse.has(key)) firstUse.set(key, use);
    }
    const rows = await preparedQuery<{ key_id: string; nonce: string }>(
      this.dataSource,
      'punctual_accept_nonces',
      ACCEPT_NONCES_SQL,
      NONCE_COLUMNS.values([...firstUse.values()]),
    );
    const recorded = new Set(rows.map((row) => identity(row.key_id, row.nonce)));
    return uses.map((use) => {
      const key = identity(use.keyId, use.nonce);
      return firstUse.get(key) === use && recorded.has(key);
    });
  }
}

function identity(keyId: string, nonce: string): string {
  return JSON.stringify([keyId, nonce]);
}
