// @ts-check
// The layering, as lint rules: apps import libs, libs never import apps nor the server that stands on
// them, an app's sources are its own, the packages a project installs (contract, client, SDK) import no
// server code, the API's and the worker's module trees (libs/server) do not import each other, and the
// domain and the runtime import nothing of ours.
// One `no-restricted-imports` entry per kind of file, since a later entry replaces an earlier one.

/** A relative path into an app (`../../../apps/api/…`). */
const INTO_APPS = { regex: '(^|/)apps/', message: 'libs never import apps: move what both need into a lib.' };
/** A path into one app's sources (`../apps/api/src/…`), from anywhere but that app. */
const intoApp = (app) => ({
  regex: `(^|/)apps/${app}(/|$)`,
  message: `apps/${app} is private to that app: import what it runs from @punctual/server (or, in this repository's specs, @app/server).`,
});
/** A path into the other of the API and the worker (`../worker/…`, `../../api/src/…`). */
const apartFrom = (other) => ({ regex: `(^|/)${other}/`, message: 'The API and the worker do not import each other: what both need belongs in a lib below them.' });
/** The server by name: it stands on the other libs (the built-in types among them), so none imports it, nor it itself. */
const INTO_SERVER = { regex: '^@(punctual|app)/server$', message: 'libs/server stands on the other libs: a lib never imports it.' };
/** A relative path into another lib's sources (`../../signature/src/…`), which skips its index and its boundary. */
const INTO_ANOTHER_LIB = { regex: '^(\\.\\./)+[^./][^/]*/src(/|$)', message: 'Import another lib by its name (@app/… or @punctual/…), not by path.' };

/** Every import except node built-ins, relative paths and the packages named. */
function onlyImports(what, allowed) {
  const names = allowed.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|');
  return {
    regex: allowed.length ? `^(?!node:|\\.|(${names})$)` : '^(?!node:|\\.)',
    message: `${what} is a package of its own: it may import only ${[...allowed, 'node built-ins', 'its own files'].join(', ')}.`,
  };
}

const restrict = (files, patterns) => ({
  files,
  ignores: ['**/*.spec.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns }] },
});

const boundaries = [
  // Specs, the benchmark and scripts included: only an app itself imports its sources.
  {
    files: ['**/*.ts'],
    ignores: ['apps/api/**', 'apps/worker/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [intoApp('api'), intoApp('worker')] }] },
  },
  restrict(['libs/**/*.ts'], [INTO_APPS, INTO_SERVER, INTO_ANOTHER_LIB]),
  restrict(['libs/domain/**/*.ts'], [
    INTO_APPS,
    INTO_ANOTHER_LIB,
    { regex: '^@(app|punctual)/', message: 'The domain is pure rules: it imports nothing of ours.' },
  ]),
  // Periodic tasks, leadership and batching, for any process and any store: the stores' libs stand on it.
  restrict(['libs/runtime/**/*.ts'], [
    INTO_APPS,
    INTO_ANOTHER_LIB,
    { regex: '^@(app|punctual)/', message: 'The runtime is process machinery for any store: it imports nothing of ours.' },
  ]),
  restrict(['libs/contract/**/*.ts'], [INTO_APPS, INTO_ANOTHER_LIB, onlyImports('The contract', [])]),
  // Its peer dependencies alone: what needs the server's runtime (the outbound client) is `@punctual/server`'s.
  restrict(['libs/sdk/**/*.ts'], [
    INTO_APPS,
    INTO_ANOTHER_LIB,
    onlyImports('The SDK', ['@nestjs/common', 'class-validator', 'class-transformer', 'reflect-metadata']),
  ]),
  restrict(['libs/client/**/*.ts'], [INTO_APPS, INTO_ANOTHER_LIB, onlyImports('The client', ['@punctual/contract', '@nestjs/microservices', 'rxjs', '@grpc/grpc-js', '@grpc/proto-loader'])]),
  restrict(['libs/server/src/api/**/*.ts'], [INTO_APPS, INTO_SERVER, INTO_ANOTHER_LIB, apartFrom('worker')]),
  restrict(['libs/server/src/worker/**/*.ts'], [INTO_APPS, INTO_SERVER, INTO_ANOTHER_LIB, apartFrom('api')]),
  restrict(['apps/api/**/*.ts'], [apartFrom('worker')]),
  restrict(['apps/worker/**/*.ts'], [apartFrom('api')]),
];

module.exports = { boundaries };
