import { Env } from './env.schema';

/**
 * The placeholder secrets written in `.env.example`. Anyone can read them, so a production
 * process refuses to start with them; `load-config.spec.ts` keeps this list in step with the file.
 */
export const EXAMPLE_API_KEY_SECRET = 'dev-secret-change-me';
export const EXAMPLE_ADMIN_PASSWORD = 'change-me-please';
export const EXAMPLE_SECRET_KEY = 'ZXhhbXBsZS13ZWJob29rLWtleS1jaGFuZ2UtbWUhISE=';

/** What is wrong with running `env` in production; the messages name keys, never values. */
export function exampleSecretProblems(env: Pick<Env, 'API_KEYS' | 'ADMIN_PASSWORD' | 'SECRET_KEY' | 'WEBHOOK_SECRET_KEY'>): string[] {
  const problems: string[] = [];
  for (const [keyId, { secret }] of env.API_KEYS) {
    if (secret === EXAMPLE_API_KEY_SECRET) problems.push(`API_KEYS key "${keyId}" uses the example secret of .env.example; set a secret of your own`);
  }
  if (env.ADMIN_PASSWORD === EXAMPLE_ADMIN_PASSWORD) problems.push('ADMIN_PASSWORD is the example password of .env.example; set a password of your own');
  const exampleKey = Buffer.from(EXAMPLE_SECRET_KEY, 'base64');
  for (const name of ['SECRET_KEY', 'WEBHOOK_SECRET_KEY'] as const) {
    if (env[name]?.some((key) => key.equals(exampleKey)))
      problems.push(`${name} lists the example key of .env.example; set a key of your own (openssl rand -base64 32)`);
  }
  return problems;
}
