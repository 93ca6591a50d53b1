import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Reads `.env` from the working directory into `process.env` when the file exists, so
 * `npm run start:api` works after `cp .env.example .env`. A variable already in the real
 * environment wins over the file: a deployment's settings are never replaced by a stray file.
 * Skipped when NODE_ENV is `test`: a test run sets its whole environment itself, and a
 * developer's `.env` must not leak into the processes it starts. Node parses the file; the values
 * go through `process.env` as this module sees it (`process.loadEnvFile` would write the real
 * environment behind the back of a sandbox that gives the module its own `process.env`).
 */
export function loadEnvFile(path = '.env'): void {
  if (process.env.NODE_ENV === 'test' || !existsSync(path)) return;
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) process.env[name] ??= value;
}
