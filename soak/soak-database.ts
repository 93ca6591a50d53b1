import { Client } from 'pg';
import { migrate } from '@app/database';
import { databaseOf } from '../bench/bench-env';
import { RecordedOccurrence } from './audit';

/** The soak's connection to its own database, straight to Postgres (never through the proxy the chaos cuts). */
export class SoakDatabase {
  private constructor(private readonly db: Client) {}

  /** Drops what an earlier run left in the database of `url`, then creates and migrates it afresh. */
  static async fresh(url: string): Promise<SoakDatabase> {
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${databaseOf(url).replace(/"/g, '""')}" WITH (FORCE)`);
    await client.end();
    await migrate(url);
    const db = new Client({ connectionString: url });
    await db.connect();
    return new SoakDatabase(db);
  }

  /** Actions not finished yet: PENDING or IN_PROGRESS. */
  async unfinished(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM actions WHERE status IN ('PENDING', 'IN_PROGRESS')`);
    return rows[0].n;
  }

  /** Actions by status, e.g. { COMPLETED: 1000 }. */
  async statuses(): Promise<Record<string, number>> {
    const { rows } = await this.db.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM actions GROUP BY status ORDER BY status`);
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  }

  /** Attempts the workers recorded as interrupted (their worker died or lost its claim), taken over with the same key. */
  async interruptedAttempts(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM action_history WHERE note LIKE '%was interrupted%'`);
    return rows[0].n;
  }

  /** Claims and successes of every occurrence, by `<id>:<occurrence>`; HTTP_REQUEST notes a success as `HTTP 2xx: …`. */
  async recordedOccurrences(): Promise<Map<string, RecordedOccurrence>> {
    const { rows } = await this.db.query<{ key: string; claims: number; successes: number }>(
      `SELECT action_id || ':' || occurrence AS key,
              count(*) FILTER (WHERE to_status = 'IN_PROGRESS' AND attempt > 0)::int AS claims,
              count(*) FILTER (WHERE from_status = 'IN_PROGRESS' AND to_status IN ('PENDING', 'COMPLETED') AND note ~ '^HTTP 2\\d\\d:')::int AS successes
       FROM action_history GROUP BY action_id, occurrence`,
    );
    return new Map(rows.map((row) => [row.key, { claims: row.claims, successes: row.successes }]));
  }

  async close(): Promise<void> {
    await this.db.end();
  }
}
