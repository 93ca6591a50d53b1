import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { AdvisoryLock } from '@app/runtime';
import { CONNECT_TIMEOUT_MS } from './data-source-options';

/**
 * A lock for the length of one transaction: `whileHeld` runs its work in a transaction that holds
 * it. The lock goes with the transaction, also when the process dies.
 */
export class TransactionLock implements AdvisoryLock<EntityManager> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly key: number,
  ) {}

  whileHeld<T>(work: (manager: EntityManager) => Promise<T>): Promise<T | null> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }]: { locked: boolean }[] = await manager.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [this.key]);
      return locked ? work(manager) : null;
    });
  }

  /** Nothing outlives a transaction. */
  async release(): Promise<void> {}
}

/**
 * A session-level lock, held by a Postgres session of this process's own: once the session takes
 * it, the process keeps it for as long as the session lives, and when the process dies or loses
 * the connection, another process takes it at its next try. The session is kept apart from the
 * pool so that the lock never leaks to a pooled connection; the work runs on it.
 */
export class SessionLock implements AdvisoryLock<Client> {
  private session?: Promise<Client>;
  private held = false;
  private released = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly key: number,
  ) {}

  async whileHeld<T>(work: (session: Client) => Promise<T>): Promise<T | null> {
    try {
      const client = await this.connect();
      if (!this.held) this.held = (await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock($1) AS locked`, [this.key])).rows[0].locked;
      if (!this.held) return null;
      return await work(client);
    } catch (error) {
      await this.disconnect();
      throw error;
    }
  }

  /** Ends the session, and the lock with it. A later call never opens a session again, which would keep a stopping process alive. */
  release(): Promise<void> {
    this.released = true;
    return this.disconnect();
  }

  private connect(): Promise<Client> {
    if (this.released) return Promise.reject(new Error('The advisory-lock session is closed: the process is shutting down'));
    this.session ??= (async () => {
      const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
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
    this.held = false;
    await session?.then((client) => client.end()).catch(() => undefined);
  }
}
