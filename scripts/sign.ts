/**
 * Signs one request with the client library, as a sibling app would:
 *   curl ... $(npm run -s sign -- POST /actions "$BODY") -d "$BODY"   → curl arguments with the four signature headers
 *   npm run -s sign -- RPC punctual.actions.create "$BODY"            → the whole message { headers, body } as JSON
 * Signs with the first key of API_KEYS (from the environment, else from .env), or with
 * SIGN_KEY_ID when set. Header values contain no spaces, so the curl output splits safely.
 */
import { SignedHttp, signedMessage } from '@punctual/client';
import { loadEnvFile } from '@app/config';

loadEnvFile();

const [method = '', target = '', body = ''] = process.argv.slice(2);
const rpc = method.toUpperCase() === 'RPC';
if (!method || !target || (!rpc && !target.startsWith('/'))) {
  process.stderr.write('usage: npm run -s sign -- METHOD PATH_WITH_QUERY [BODY]\n       npm run -s sign -- RPC PATTERN BODY\n');
  process.exit(2);
}
const keys = (process.env.API_KEYS ?? '').split(',').map((pair) => pair.trim().split(/:(.*)/s));
const wanted = process.env.SIGN_KEY_ID;
const [keyId, secret] = keys.find(([id]) => !wanted || id === wanted) ?? [];
if (!keyId || !secret) {
  process.stderr.write('No API key to sign with: set API_KEYS=keyId:secret (or create .env from .env.example)\n');
  process.exit(2);
}
if (rpc) {
  process.stdout.write(`${JSON.stringify(signedMessage({ keyId, secret }, target, body))}\n`);
} else {
  // Only signs: no request is sent, so the base URL is never used.
  const headers = new SignedHttp({ baseUrl: '', keyId, secret }).signatureHeaders(method.toUpperCase(), target, body);
  process.stdout.write(
    `${Object.entries(headers)
      .map(([name, value]) => `-H ${name}:${value}`)
      .join(' ')}\n`,
  );
}
