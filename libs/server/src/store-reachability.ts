import { Client } from 'pg';
import { PunctualConfig, redisConnection } from '@app/config';

/** How long a start waits for each store's first answer before it gives up. */
const REACH_TIMEOUT_MS = 5_000;

/** A store Punctual needs did not answer at start: the one line a process stops with. */
export class StoreUnreachableError extends Error {
  constructor(store: string, variable: string, url: string, cause: unknown) {
    super(`${store} at ${addressOf(url)} (${variable}) did not answer: ${reasonOf(cause)}`);
    this.name = 'StoreUnreachableError';
  }
}

/**
 * Refuses to start without Postgres and Redis, naming the variable that points at each and the
 * address it names, instead of the clients' retry loops and stacks. Each is asked once, with a
 * deadline; the running process's own connections still ride out a later outage.
 */
export async function assertStoresReachable(config: PunctualConfig): Promise<void> {
  await reach('Postgres', 'DATABASE_URL', config.database.url, async () => {
    const client = new Client({ connectionString: config.database.url, connectionTimeoutMillis: REACH_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  });
  const [variable, url] = config.redis.clusterNodes ? ['REDIS_CLUSTER_NODES', config.redis.clusterNodes[0]] : ['REDIS_URL', config.redis.url];
  await reach('Redis', variable, url, async () => {
    const client = redisConnection(config.redis, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: REACH_TIMEOUT_MS,
      retryStrategy: () => null,
    });
    // ioredis rejects with "Connection is closed"; the socket's own error says why.
    let cause: Error | undefined;
    client.on('error', (error: Error) => {
      cause = error;
    });
    try {
      await client.connect().catch((error: unknown) => {
        throw cause ?? error;
      });
      await client.ping();
    } finally {
      client.disconnect();
    }
  });
}

async function reach(store: string, variable: string, url: string, ask: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REACH_TIMEOUT_MS / 1000} s`)), REACH_TIMEOUT_MS);
  });
  try {
    await Promise.race([ask(), deadline]);
  } catch (error) {
    throw new StoreUnreachableError(store, variable, url, error);
  } finally {
    clearTimeout(timer);
  }
}

/** Host and port only: a URL's user and password never reach a log. */
function addressOf(url: string): string {
  try {
    const { hostname, port, protocol } = new URL(url);
    return `${hostname}:${port || (protocol.startsWith('postgres') ? '5432' : '6379')}`;
  } catch {
    return 'an address that is not a URL';
  }
}

function reasonOf(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return (code && !message?.includes(code) ? `${code} ` : '') + (message ?? String(error)).split('\n')[0];
}
