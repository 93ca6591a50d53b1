import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { PunctualConfig } from '@app/config';

/** Session-level advisory-lock key of the one process that computes gauges ("pung"). */
const GAUGE_LOCK = 0x70756e67;

/**
 * Gauges that need a query, computed by one process among all: the one whose own Postgres session
 * holds a session-level advisory lock. The lock lives as long as that session, so when its process
 * dies or loses the connection, another process takes over at its next try. The session is kept
 * apart from the pool so that the lock never leaks to a pooled connection.
 */
@Injectable()
export class GaugeRepository implements OnApplicationShutdown {
  private session?: Promise<Client>;
  private leader = false;
  private closed = false;

  constructor(private readonly config: PunctualConfig) {}

  /** PENDING actions due more than `graceMs` ago; null when another process computes the gauges. */
  async overdueWhileLeader(graceMs: number): Promise<number | null> {
    try {
      const client = await this.connect();
      if (!this.leader) this.leader = (await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1) AS locked`, [GAUGE_LOCK])).rows[0].locked;
      if (!this.leader) return null;
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM actions WHERE status = 'PENDING' AND next_attempt_at < now() - $1 * interval '1 millisecond'`,
        [graceMs],
      );
      return rows[0].n;
    } catch (error) {
      await this.disconnect();
      throw error;
    }
  }

  // After the loops stop (they stop before application shutdown); a late call never opens a session again,
  // which would keep the process alive.
  onApplicationShutdown(): Promise<void> {
    this.closed = true;
    return this.disconnect();
  }

  private connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('The gauge session is closed: the process is shutting down'));
    this.session ??= (async () => {
      const client = new Client({ connectionString: this.config.database.url, connectionTimeoutMillis: 2000 });
      // A session lost while idle gives up the lock; the next try reconnects.
      client.on('error', () => void this.disconnect());
      await client.connect();
      return client;
    })();
    return this.session;
  }

  private async disconnect(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.leader = false;
    await session?.then((client) => client.end()).catch(() => undefined);
  }
}
