import { DataSource } from 'typeorm';
import { Client } from 'pg';
import { dataSourceOptions } from './data-source-options';

/** `host:port/name` of a database URL, never its credentials: what a migration names in its output. */
export function describeDatabase(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

/** Creates the database named in the URL when it does not exist yet (a fresh machine, a test run). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/** Creates the database if needed and applies every pending migration. */
export async function migrate(url: string): Promise<string[]> {
  await ensureDatabase(url);
  const dataSource = new DataSource(dataSourceOptions(url));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await dataSource.destroy();
  }
}
