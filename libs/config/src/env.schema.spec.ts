import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { envSchema } from './env.schema';

const ROOT = join(__dirname, '..', '..', '..');
const envExample = readFileSync(join(ROOT, '.env.example'), 'utf8');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
/** Set by the image and its health checks rather than by whoever runs Compose. */
const FIXED_IN_THE_IMAGE = ['NODE_ENV', 'PORT', 'WORKER_HTTP_PORT'];

/** Variables of `.env.example`, set or commented out (`# NAME=…`). */
const exampleNames = [...envExample.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
const exampleValues = parseEnv(envExample);
/** `| \`NAME\` | default | meaning |` rows of the README's configuration table → default cell. */
const readmeDefaults = new Map([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim()]));

const names = Object.keys(envSchema.shape) as (keyof typeof envSchema.shape)[];
/** Variable → its default, for the variables that have one (all of them strings or numbers). */
const defaults = new Map(
  names.flatMap((name) => {
    const value = envSchema.shape[name].safeParse(undefined).data;
    return typeof value === 'string' || typeof value === 'number' ? [[name, String(value)] as const] : [];
  }),
);

describe('every variable of the schema is documented', () => {
  it('in .env.example and in the README table, and nothing else is', () => {
    expect([...exampleNames].sort()).toEqual([...names].sort());
    expect([...readmeDefaults.keys()].sort()).toEqual([...names].sort());
  });

  it('and docker-compose.yml passes each one through to the apps', () => {
    const passed = names.filter((name) => new RegExp(`^  ${name}: `, 'm').test(compose));
    expect(passed.sort()).toEqual(names.filter((name) => !FIXED_IN_THE_IMAGE.includes(name)).sort());
  });

  it.each([...defaults])('%s: with the same default (%s) in both', (name, value) => {
    expect(readmeDefaults.get(name)).toBe(`\`${value}\``);
    expect(exampleValues[name]).toBe(value);
  });
});
