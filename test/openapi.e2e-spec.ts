import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as ts from 'typescript';
import { signTryItOut } from '@app/server';
import { TEST_KEY } from '@app/testing';
import { ApiTestApp, startApiApp } from './support/api-test-app';

// Run without blocking the event loop: the API under test serves from this process, and a socket it
// kept alive must not time out unseen while a tool runs.
const run = async (args: string[]) => (await promisify(execFile)(process.execPath, args, { encoding: 'utf8' })).stdout;

const SIGNATURE = { 'X-Punctual-Key': [], 'X-Punctual-Timestamp': [], 'X-Punctual-Nonce': [], 'X-Punctual-Signature': [] };

/** A client's code against the generated types: it must compile, and the line marked must not. */
const USAGE = `
import type { components, operations } from './punctual-api';

type CreateBody = components['schemas']['CreateActionDto'];
export const call: CreateBody = { action: 'HTTP_REQUEST', executionTime: '2030-01-15T08:35:17.120Z', data: { url: 'https://example.com/hook', body: { a: 1 } } };
export const cron: CreateBody = { action: 'HTTP_REQUEST', repeat: true, cron: '0 9 * * MON-FRI', data: { url: 'https://example.com/hook' } };
export const message: CreateBody = { action: 'MESSAGE', executionTime: 1894000000000, data: { pattern: 'billing.trial.downgrade', payload: { accountId: 'a1' } } };
// @ts-expect-error data must fit the type that action names
export const mismatched: CreateBody = { action: 'MESSAGE', executionTime: Date.UTC(2031, 0, 1), data: { url: 'https://example.com/hook' } };

type Created = operations['createAction']['responses'][201]['content']['application/json'];
export const status: Created['status'] = 'PENDING';
type Refused = operations['createAction']['responses'][400]['content']['application/json'];
export const refusal: Refused = { statusCode: 400, error: 'Bad Request', message: ['data.url: url must be an http or https URL'] };
type Headers = NonNullable<operations['createAction']['parameters']['header']>;
export const withoutKey: Headers = {};
export const page: operations['listActions']['responses'][200]['content']['application/json']['nextCursor'] = null;
`;

describe('The OpenAPI document', () => {
  let api: ApiTestApp;
  let document: any;
  let dir: string;

  beforeAll(async () => {
    api = await startApiApp();
    document = await (await fetch(`${api.client.baseUrl}/docs-json`)).json();
    dir = mkdtempSync(join(tmpdir(), 'punctual-openapi-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await api.close();
  });

  it('is a valid OpenAPI document', async () => {
    // swagger-parser is an ES module, which the test runner cannot load in process; Node runs it.
    writeFileSync(join(dir, 'document.json'), JSON.stringify(document));
    const validate = `import SwaggerParser from '@apidevtools/swagger-parser'; await SwaggerParser.validate(process.argv[1]); process.stdout.write('valid');`;
    expect(await run(['--input-type=module', '-e', validate, join(dir, 'document.json')])).toBe('valid');
  });

  it("passes Redocly's recommended rules without an error or a warning", async () => {
    // Redocly's core is an ES module, which the test runner cannot load in process; Node runs it.
    writeFileSync(join(dir, 'lint.json'), JSON.stringify(document));
    const lint = `
      import { createConfig, lintFromString } from '@redocly/openapi-core';
      import { readFileSync } from 'node:fs';
      const config = await createConfig({
        extends: ['recommended'],
        // The health probes answer 200 or 503 and take no input a client could get wrong: no 4XX to document.
        rules: { 'operation-4xx-response': 'off' },
      });
      const problems = await lintFromString({ source: readFileSync(process.argv[1], 'utf8'), absoluteRef: 'openapi.json', config });
      process.stdout.write(JSON.stringify(problems.map((p) => \`\${p.severity} \${p.ruleId} \${p.location[0]?.pointer}: \${p.message}\`)));`;
    const problems = JSON.parse(await run(['--input-type=module', '-e', lint, join(dir, 'lint.json')]));
    expect(problems).toEqual([]);
  });

  it('lists every JSON route the API serves: the console, Bull Board, the metrics and this document are not the API', () => {
    const router = api.app.getHttpAdapter().getInstance().router;
    const served = router.stack
      .filter((layer: { route?: unknown }) => layer.route)
      .flatMap((layer: { route: { path: string; methods: Record<string, boolean> } }) =>
        Object.keys(layer.route.methods).map((method) => `${method} ${layer.route.path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1')}`),
      )
      .filter((route: string) => !/^\w+ \/(docs|metrics|admin(?!\/api))/.test(route));
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object).map((method) => `${method} ${path}`),
    );
    expect([...new Set(served)].sort()).toEqual(documented.sort());
  });

  it('lists each refusal a route can give: 400 for a bad id, 413 and 503 anywhere, 429 where quotas apply', () => {
    const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses);
    expect(statuses('/actions', 'post')).toEqual(expect.arrayContaining(['400', '401', '413', '422', '429', '503']));
    expect(statuses('/actions/batch', 'post')).toEqual(expect.arrayContaining(['400', '413', '429']));
    expect(statuses('/actions/preview', 'post')).toEqual(expect.arrayContaining(['400', '413']));
    for (const method of ['get', 'patch', 'delete']) expect(statuses('/actions/{id}', method)).toEqual(expect.arrayContaining(['400', '404', '503']));
    expect(statuses('/webhooks/{id}', 'get')).toEqual(expect.arrayContaining(['400', '404', '503']));
    expect(statuses('/admin/api/tenants', 'post')).toEqual(expect.arrayContaining(['400', '413', '503']));
  });

  it('says null, integer and optional exactly', () => {
    const { ActionResponse, HistoryEntryResponse, UpdateActionDto, CreateActionFields, CreatedWebhookResponse } = document.components.schemas;
    expect(ActionResponse.properties.frequency.enum).toContain(null);
    expect(ActionResponse.properties.misfirePolicy.enum).toContain(null);
    expect(HistoryEntryResponse.properties.from.enum).toContain(null);
    expect(UpdateActionDto.properties.endAt.anyOf).toEqual([
      { type: 'integer', nullable: true },
      { type: 'string', format: 'date-time', nullable: true },
    ]);
    expect(CreateActionFields.required).not.toContain('executionTime');
    expect(CreateActionFields.properties.executionTime.oneOf[0].type).toBe('integer');
    expect(CreateActionFields.properties.executionRemainder.type).toBe('integer');
    expect(CreatedWebhookResponse.required).toContain('secret');
    // Only the health checks' timings may be fractions.
    const numbers = JSON.stringify(document).match(/"\w+":\{"type":"number"/g) ?? [];
    expect(new Set(numbers)).toEqual(new Set(['"responseTime":{"type":"number"']));
  });

  it('asks for the four signature headers together, and lists Idempotency-Key once, optional', () => {
    const create = document.paths['/actions'].post;
    expect(create.security).toEqual([SIGNATURE]);
    expect(document.paths['/actions/{id}'].get.security).toEqual([SIGNATURE]);
    const keys = create.parameters.filter((p: { name: string }) => p.name.toLowerCase() === 'idempotency-key');
    expect(keys).toEqual([expect.objectContaining({ in: 'header', required: false })]);
  });

  it('pages GET /calendars with limit 1–100 (default 20) and cursor, and answers 429 for a calendar past the limit', () => {
    const list = document.paths['/calendars'].get;
    const query = Object.fromEntries(list.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(query).sort()).toEqual(['cursor', 'limit']);
    expect(query.limit.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    const page = list.responses['200'].content['application/json'].schema.$ref.split('/').pop();
    expect(document.components.schemas[page].properties).toMatchObject({ items: { type: 'array' }, nextCursor: { type: 'string', nullable: true } });
    expect(document.paths['/calendars/{name}'].put.responses['429'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    });
  });

  it('names operations as a generator would, and gives every error answer the error body', () => {
    const ids = Object.values(document.paths).flatMap((path: any) => Object.values(path).map((op: any) => op.operationId));
    expect(ids).toEqual(
      expect.arrayContaining([
        'createAction',
        'createActionBatch',
        'listActions',
        'getAction',
        'getActionHistory',
        'updateAction',
        'deleteAction',
        'retryAction',
        'getActionStats',
      ]),
    );
    expect(ids.filter((id: string) => id.includes('_'))).toEqual([]);
    expect(document.paths['/actions/{id}'].patch.responses['409'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    });
    expect(document.components.schemas.ErrorResponse.required).toEqual(['statusCode', 'error', 'message']);
  });

  it('chooses the data schema by action, from the schemas the API validates with, with examples in the future', () => {
    const create = document.components.schemas.CreateActionDto;
    expect(create.discriminator.propertyName).toBe('action');
    expect(Object.keys(create.discriminator.mapping).sort()).toEqual(['GRPC', 'HTTP_REQUEST', 'MESSAGE', 'SEND_NOTIFICATION']);
    expect(document.components.schemas.MessageData.required).toEqual(['pattern']);
    const examples = JSON.stringify(document).match(/"example":"\d{4}-\d\d-\d\dT[^"]+"/g) ?? [];
    for (const example of examples) expect(Date.parse(example.slice(11, -1))).toBeGreaterThan(Date.now());
  });

  // Request fields with a default are optional; openapi-typescript makes them required unless told otherwise.
  it('generates types with openapi-typescript that a short client compiles against', async () => {
    writeFileSync(join(dir, 'punctual-api.json'), JSON.stringify(document));
    await run([
      join(__dirname, '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
      join(dir, 'punctual-api.json'),
      '--default-non-nullable',
      'false',
      '-o',
      join(dir, 'punctual-api.ts'),
    ]);
    writeFileSync(join(dir, 'usage.ts'), USAGE);
    const program = ts.createProgram([join(dir, 'usage.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('describes the admin API under basic auth, with its answers and refusals', () => {
    expect(document.components.securitySchemes.admin).toEqual(expect.objectContaining({ type: 'http', scheme: 'basic' }));
    const tenants = document.paths['/admin/api/tenants'];
    const tenant = document.paths['/admin/api/tenants/{id}'];
    const keys = document.paths['/admin/api/tenants/{id}/keys'];
    const key = document.paths['/admin/api/tenants/{id}/keys/{keyId}'];
    const operations = [tenants.post, tenants.get, tenant.get, tenant.patch, keys.post, key.delete];
    expect(operations.map((op) => op.operationId)).toEqual([
      'createTenant',
      'listTenants',
      'getTenant',
      'updateTenant',
      'createTenantKey',
      'revokeTenantKey',
    ]);
    for (const op of operations) {
      expect(op.security).toEqual([{ admin: [] }]);
      expect(op.tags).toEqual(['admin']);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    expect(tenants.post.responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    expect(keys.post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreatedKeyResponse' });
    expect(document.components.schemas.CreatedKeyResponse.required).toEqual(['keyId', 'secret', 'createdAt']);
    expect(document.components.schemas.TenantResponse.properties.activeActions.type).toBe('integer');
    expect(key.delete.responses['409'].description).toContain('API_KEYS');
  });

  it('signs "Try it out" calls in the page with the key pasted into Authorize, sending only the key id', async () => {
    const init = await (await fetch(`${api.client.baseUrl}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('requestInterceptor');
    expect(init).toContain('X-Punctual-Signature');

    const pasted = `${TEST_KEY.keyId}:${TEST_KEY.secret}`;
    const body = JSON.stringify({ action: 'HTTP_REQUEST', executionTime: Date.now() + 3_600_000, data: { url: 'https://example.com/try-it-out' } });
    const create = await signTryItOut({
      url: `${api.client.baseUrl}/actions`,
      method: 'post',
      headers: { 'X-Punctual-Key': pasted, 'Content-Type': 'application/json' },
      body,
    });
    expect(create.headers['X-Punctual-Key']).toBe(TEST_KEY.keyId);
    expect(JSON.stringify(create.headers)).not.toContain(TEST_KEY.secret);
    const created = await fetch(create.url, { method: 'POST', headers: create.headers, body });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;

    // The path with its query is what is signed.
    const read = await signTryItOut({ url: `${api.client.baseUrl}/actions/${id}/history?limit=5`, method: 'get', headers: { 'x-punctual-key': pasted } });
    expect((await fetch(read.url, { headers: read.headers })).status).toBe(200);

    // A wrong secret is a wrong signature, and a key id alone is left as typed.
    const wrong = await signTryItOut({
      url: `${api.client.baseUrl}/actions/${id}`,
      method: 'get',
      headers: { 'X-Punctual-Key': `${TEST_KEY.keyId}:not-the-secret` },
    });
    expect((await fetch(wrong.url, { headers: wrong.headers })).status).toBe(401);

    // From a page, a call to another origin than the page's goes unsigned, without the key.
    Object.defineProperty(globalThis, 'location', { value: new URL(`${api.client.baseUrl}/docs`), configurable: true });
    try {
      const elsewhere = await signTryItOut({ url: 'http://127.0.0.1:9/actions', method: 'get', headers: { 'X-Punctual-Key': pasted } });
      expect(elsewhere.headers).toEqual({});
      const here = await signTryItOut({ url: `${api.client.baseUrl}/actions`, method: 'get', headers: { 'X-Punctual-Key': pasted } });
      expect(here.headers['X-Punctual-Key']).toBe(TEST_KEY.keyId);
    } finally {
      delete (globalThis as { location?: unknown }).location;
    }
    expect(await signTryItOut({ url: `${api.client.baseUrl}/actions`, method: 'get', headers: { 'X-Punctual-Key': TEST_KEY.keyId } })).toEqual({
      url: `${api.client.baseUrl}/actions`,
      method: 'get',
      headers: { 'X-Punctual-Key': TEST_KEY.keyId },
    });
  });
});
