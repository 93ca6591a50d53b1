import { testHttp } from '@app/testing';
import { ApiTestApp, startApiApp } from './support/api-test-app';
import { API_READY, AppProcess } from './support/app-process';
import { freePort } from './support/free-port';
import { answerProblems, childRecordings, recordedProblems } from './support/openapi-answers';

const ID = '00000000-0000-4000-8000-000000000000';

/** The check every spec file ends with (test/openapi-answers.setup.ts), fed answers the real document must refuse. */
describe('Checking answers against the OpenAPI document', () => {
  let api: ApiTestApp;
  let document: any;

  beforeAll(async () => {
    api = await startApiApp();
    document = (await api.client.get('/docs-json')).body;
  });
  afterAll(() => api.close());

  it('records what the API answers, and finds nothing wrong with the real answers', async () => {
    expect((await api.client.get(`/actions/${ID}`)).status).toBe(404);
    expect((await api.client.get('/actions?limit=2')).status).toBe(200);
    expect(recordedProblems()).toEqual([]);
  });

  it('names the route, the status and what ajv refused in a body that drifted from its schema', () => {
    const drifted = { id: ID, status: 'SLEEPING', executionTime: 'soon' };
    const problems = answerProblems(document, [
      { method: 'GET', url: `/actions/${ID}?x=1`, status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(drifted) },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GET \/actions\/\{id\} → 200: /);
    expect(problems[0]).toContain("must have required property 'action'");
    expect(problems[0]).toContain('/status must be equal to one of the allowed values');
    expect(problems[0]).toContain('/executionTime must match format "date-time"');
  });

  it('refuses a status the operation does not list, an error body without its fields, and a body where none is documented', () => {
    const json = 'application/json';
    const problems = answerProblems(document, [
      { method: 'GET', url: '/actions/stats', status: 418, contentType: json, body: '{}' },
      { method: 'GET', url: `/actions/${ID}`, status: 404, contentType: json, body: JSON.stringify({ statusCode: 404 }) },
      { method: 'DELETE', url: `/actions/${ID}`, status: 204, contentType: json, body: '{"deleted":true}' },
      { method: 'POST', url: '/actions', status: 201, contentType: 'text/html', body: '<p>created</p>' },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^GET \/actions\/stats → 418: status not in the document \(it lists 200, /),
      expect.stringMatching(/^GET \/actions\/\{id\} → 404: \(body\) must have required property 'error'/),
      'DELETE /actions/{id} → 204: a body the document does not describe; e.g. {"deleted":true}',
      'POST /actions → 201: content-type text/html, not application/json; e.g. <p>created</p>',
    ]);
  });

  it('leaves alone what is not a route of the document', () => {
    const problems = answerProblems(document, [
      { method: 'GET', url: '/admin/actions', status: 200, contentType: 'text/html', body: '<html></html>' },
      { method: 'PUT', url: '/actions', status: 404, contentType: 'application/json', body: '{}' },
    ]);
    expect(problems).toEqual([]);
  });

  it('records the document and the answers of an API process the spec started, and finds nothing wrong with them', async () => {
    const port = await freePort();
    const child = await new AppProcess('api', { PORT: port }).ready(API_READY);
    try {
      const client = testHttp(`http://127.0.0.1:${port}`);
      expect((await client.get(`/actions/${ID}`)).status).toBe(404);
      expect((await client.get('/actions/stats')).status).toBe(200);
    } finally {
      // A stop, not a kill: the process ends after it has written what it answered.
      child.kill('SIGTERM');
      await child.exited;
    }
    const [recording, ...others] = childRecordings();
    expect(others).toEqual([]);
    expect(recording.document).toEqual(document);
    expect(recording.answers.map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([`GET /actions/${ID} 404`, 'GET /actions/stats 200']);
    expect(answerProblems(recording.document!, recording.answers)).toEqual([]);
  }, 120_000);
});
