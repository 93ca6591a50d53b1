import { PoolClient } from 'pg';
import { DataSource } from 'typeorm';

/**
 * Runs a named prepared statement: each connection plans it once instead of on every call,
 * which for the hot statements costs as much as running them. Only for statements whose
 * text never changes (their values travel as arrays). The connection comes from TypeORM's
 * pool through a query runner, and the statement goes through node-postgres's own `query`.
 */
export async function preparedQuery<R = Record<string, unknown>>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<R[]> {
  const runner = dataSource.createQueryRunner();
  try {
    const client = (await runner.connect()) as PoolClient;
    return (await client.query({ name, text, values })).rows as R[];
  } finally {
    await runner.release();
  }
}
