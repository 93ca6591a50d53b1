/**
 * The migration command: applies every pending migration to DATABASE_URL (read from the
 * environment, else from `.env`, with the default the API and the worker use). `npm run
 * migration:run` runs it from source; `npm run build` also compiles it to
 * dist/libs/database/src/run-migrations.js, which the production image runs (`npm run
 * migration:run:prod`) without any TypeScript tooling.
 */
import { loadDatabaseUrl, loadEnvFile } from '@app/config';
import { describeDatabase, migrate } from './migrate';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

loadEnvFile();
let url = '';
try {
  url = loadDatabaseUrl();
} catch (error) {
  fail((error as Error).message);
}
migrate(url).then(
  (applied) => {
    const where = describeDatabase(url);
    process.stdout.write(applied.length ? `Applied migrations to ${where}: ${applied.join(', ')}\n` : `Database schema of ${where} is up to date.\n`);
  },
  (error: Error) => fail(`Migration failed for ${describeDatabase(url)}: ${error.message}`),
);
