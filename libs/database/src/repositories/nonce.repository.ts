import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Accepted request nonces in Postgres: replay protection while Redis is unreachable. */
@Injectable()
export class NonceRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Records the nonce unless it is already there and unexpired; false for a replay. */
  async accept(keyId: string, nonce: string, ttlMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO accepted_nonces (key_id, nonce, expires_at) VALUES ($1, $2, now() + ($3 || ' milliseconds')::interval)
       ON CONFLICT (key_id, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE accepted_nonces.expires_at < now()
       RETURNING 1`,
      [keyId, nonce, ttlMs],
    );
    return rows.length === 1;
  }
}
