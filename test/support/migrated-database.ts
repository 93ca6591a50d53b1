import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../libs/database/src/data-source-options';
import { migrate } from '../../libs/database/src/migrate';

/** Undoes the latest migrations until `name` is the last one applied. */
export async function undoMigrationsAfter(db: DataSource, name: string): Promise<void> {
  for (;;) {
    const [last] = await db.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`);
    if (last?.name === name) return;
    await db.undoLastMigration({ transaction: 'each' });
  }
}

/**
 * A database of its own (the test database's name plus `suffix`), created afresh, migrated up to
 * `name` and no further: for a spec about one migration, which later ones would change under it.
 */
export async function databaseMigratedTo(suffix: string, name: string): Promise<DataSource> {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `${url.pathname}_${suffix}`;
  const admin = new URL(url.toString());
  admin.pathname = '/postgres';
  const server = new DataSource({ type: 'postgres', url: admin.toString() });
  await server.initialize();
  await server.query(`DROP DATABASE IF EXISTS ${url.pathname.slice(1)}`);
  await server.destroy();
  await migrate(url.toString());
  const db = new DataSource(dataSourceOptions(url.toString()));
  await db.initialize();
  await undoMigrationsAfter(db, name);
  return db;
}
