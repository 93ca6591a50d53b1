import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs a named prepared statement: each connection plans it once instead of on every call,
 * which for the hot statements costs as much as running them. Only for statements whose
 * text never changes (their values travel as arrays).
 */
export async function preparedQuery<R = Record<string, unknown>>(dataSource: DataSource, name: string, text: string, values: unknown[]): Promise<R[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  return (await pool.query({ name, text, values })).rows as R[];
}
