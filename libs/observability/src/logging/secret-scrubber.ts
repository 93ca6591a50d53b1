import { PunctualConfig } from '@app/config';

const REDACTED = '[REDACTED]';
/** Shorter store passwords are left out: replacing every occurrence of a short word would garble lines. */
const MIN_SCRUBBED_LENGTH = 8;

/**
 * The secrets this deployment knows, in every form a log line could carry them: API secrets, the
 * admin password and its basic-auth header value, and the passwords inside the store URLs.
 */
export function configuredSecrets(config: PunctualConfig): string[] {
  const urlPasswords = [config.database.url, config.redis.url, config.smtp.url].flatMap((url) => {
    const password = url ? new URL(url).password : '';
    return password ? [password, decodeURIComponent(password)] : [];
  });
  const basicAuth = Buffer.from(`${config.admin.user}:${config.admin.password}`).toString('base64');
  const secrets = [...[...config.auth.apiKeys.values()].map((key) => key.secret), config.admin.password, basicAuth, ...urlPasswords];
  return [...new Set(secrets)].filter((secret) => secret.length >= MIN_SCRUBBED_LENGTH);
}

/** `scheme://user:password@`: credentials inside a URL that an error message quotes. */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"]+@/gi;

/**
 * Replaces known secrets in a serialized JSON line, as written and as JSON escapes them, and the
 * credentials of any URL. Nothing Punctual logs should hold one; this is the last guard, for a
 * message that quotes one by mistake (a driver's error naming its connection URL).
 */
export function secretScrubber(secrets: readonly string[]): (line: string) => string {
  const forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))];
  return (line) => {
    let scrubbed = line;
    for (const form of forms) if (scrubbed.includes(form)) scrubbed = scrubbed.split(form).join(REDACTED);
    return scrubbed.includes('@') ? scrubbed.replace(URL_CREDENTIALS, `$1${REDACTED}@`) : scrubbed;
  };
}
