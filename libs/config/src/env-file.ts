import { existsSync } from 'node:fs';
import { config } from 'dotenv';

/**
 * Reads `.env` from the working directory into `process.env` when the file exists, so
 * `npm run start:api` works after `cp .env.example .env`. A variable already in the real
 * environment wins over the file (no override): a deployment's settings are never replaced by
 * a stray file. Skipped when NODE_ENV is `test`: a test run sets its whole environment itself,
 * and a developer's `.env` must not leak into the processes it starts.
 */
export function loadEnvFile(path = '.env'): void {
  if (process.env.NODE_ENV === 'test' || !existsSync(path)) return;
  config({ path, quiet: true });
}
