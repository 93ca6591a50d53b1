import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childAnswersDirectory, recordedProblems } from './support/openapi-answers';

/** A document of one operation, enough for the check to judge answers against. */
const DOCUMENT = {
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { content: { 'application/json': { schema: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'size'],
        additionalProperties: false,
        properties: { id: { type: 'string', format: 'uuid' }, size: { type: 'integer', minimum: 0 } },
      },
    },
  },
};
const ID = '00000000-0000-4000-8000-000000000000';
const json = 'application/json; charset=utf-8';

/** Writes what an API process started by a spec records (test/support/record-answers.preload.ts). */
function recordAsProcess(pid: number, lines: object[], unfinished = ''): void {
  writeFileSync(join(childAnswersDirectory(), `${pid}.jsonl`), lines.map((line) => `${JSON.stringify(line)}\n`).join('') + unfinished);
}

describe('Checking the answers of API processes a spec started', () => {
  it('finds nothing wrong with answers the document describes, and ignores a line still being written', () => {
    recordAsProcess(
      1,
      [
        { document: DOCUMENT },
        { answer: { method: 'GET', url: `/things/${ID}`, status: 200, contentType: json, body: JSON.stringify({ id: ID, size: 3 }) } },
        { answer: { method: 'GET', url: '/things/x?verbose=1', status: 404, contentType: json, body: '{"error":"no such thing"}' } },
        { answer: { method: 'GET', url: '/elsewhere', status: 500, contentType: 'text/plain', body: 'not a route of the document' } },
      ],
      '{"answer":{"meth',
    );
    expect(recordedProblems()).toEqual([]);
  });

  it("names each process's answers the document does not describe, and removes the recordings once checked", () => {
    const directory = childAnswersDirectory();
    recordAsProcess(1, [
      { document: DOCUMENT },
      { answer: { method: 'GET', url: `/things/${ID}`, status: 200, contentType: json, body: JSON.stringify({ id: 'seven', size: -1, colour: 'red' }) } },
      { answer: { method: 'GET', url: `/things/${ID}`, status: 409, contentType: json, body: '{}' } },
    ]);
    recordAsProcess(2, [{ answer: { method: 'GET', url: `/things/${ID}`, status: 200, contentType: json, body: '{}' } }]);
    const problems = recordedProblems();
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GET \/things\/\{id\} → 200: .*must NOT have additional properties.*\/id must match format "uuid".*\/size must be >= 0/),
        expect.stringMatching(/^GET \/things\/\{id\} → 409: status not in the document \(it lists 200, 404\)/),
        'an API process recorded 1 answer(s) but not its OpenAPI document',
      ]),
    );
    expect(existsSync(directory)).toBe(false);
    expect(recordedProblems()).toEqual([]);
  });
});
