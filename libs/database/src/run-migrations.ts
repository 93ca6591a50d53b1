/**
 * The migration command: applies every pending migration to DATABASE_URL (read from the
 * environment, else from `.env`). `npm run migration:run` runs it from source; `npm run build`
 * also compiles it to dist/libs/database/src/run-migrations.js, which the production image runs
 * (`npm run migration:run:prod`) without any TypeScript tooling.
 */
import { loadEnvFile } from '@app/config';
import { migrate } from './migrate';

loadEnvFile();
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/punctual';
migrate(url).then(
  (applied) => {
    process.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Database schema is up to date.\n');
  },
  (error: Error) => {
    process.stderr.write(`Migration failed for ${new URL(url).host}: ${error.message}\n`);
    process.exit(1);
  },
);
