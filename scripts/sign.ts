/**
 * Prints curl arguments carrying the four signature headers for one request:
 *   curl ... $(npm run -s sign -- POST /actions "$BODY") -d "$BODY"
 * Signs with the first key of API_KEYS (from the environment, else from .env), or with
 * SIGN_KEY_ID when set. Header values contain no spaces, so the output splits safely.
 */
import { existsSync, readFileSync } from 'node:fs';
import { signRequest } from '@app/signature';

function envValue(name: string): string | undefined {
  if (process.env[name]) return process.env[name];
  if (!existsSync('.env')) return undefined;
  const line = readFileSync('.env', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).trim().replace(/^['"]|['"]$/g, '');
}

const [method, path, body = ''] = process.argv.slice(2);
if (!method || !path?.startsWith('/')) {
  process.stderr.write('usage: npm run -s sign -- METHOD PATH_WITH_QUERY [BODY]\n');
  process.exit(2);
}
const keys = (envValue('API_KEYS') ?? '').split(',').map((pair) => pair.trim().split(/:(.*)/s));
const wanted = envValue('SIGN_KEY_ID');
const [keyId, secret] = keys.find(([id]) => !wanted || id === wanted) ?? [];
if (!keyId || !secret) {
  process.stderr.write('No API key to sign with: set API_KEYS=keyId:secret (or create .env from .env.example)\n');
  process.exit(2);
}
const headers = signRequest({ keyId, secret, method: method.toUpperCase(), pathWithQuery: path, body });
process.stdout.write(`${Object.entries(headers).map(([name, value]) => `-H ${name}:${value}`).join(' ')}\n`);
