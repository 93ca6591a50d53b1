import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Answer, captureAnswer, OpenApiDocument, Routes } from './answer-recorder';

const recordings: { document: OpenApiDocument; answers: Answer[] }[] = [];

/**
 * Keeps every answer `server` gives on a route of `document` (its own OpenAPI document), for
 * `recordedProblems` to check at the end of the spec file.
 */
export function recordAnswers(server: Server, document: OpenApiDocument): void {
  const recording = { document, answers: [] as Answer[] };
  recordings.push(recording);
  const routes = new Routes(document);
  server.prependListener('request', (req, res: ServerResponse) => {
    if (routes.template(req.url ?? '')) captureAnswer(req, res, (answer) => recording.answers.push(answer));
  });
}

let childDirectory: string | undefined;

/**
 * Where the API processes this spec file starts record their document and answers
 * (`PUNCTUAL_RECORD_ANSWERS`, read by test/support/record-answers.preload.ts): one file per process.
 */
export function childAnswersDirectory(): string {
  childDirectory ??= mkdtempSync(join(tmpdir(), 'punctual-answers-'));
  return childDirectory;
}

/** One API process's recording: the document it served and the answers it gave on its routes. */
export interface ChildRecording {
  document?: OpenApiDocument;
  answers: Answer[];
}

/** What the API processes started since the last call recorded; their directory is then removed. */
export function childRecordings(): ChildRecording[] {
  const directory = childDirectory;
  childDirectory = undefined;
  if (!directory) return [];
  try {
    return readdirSync(directory).map((name) => parseRecording(readFileSync(join(directory, name), 'utf8')));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** A process's JSON lines: `{"document": …}` first, then one `{"answer": …}` per answer. */
function parseRecording(text: string): ChildRecording {
  // The piece after the last newline is empty, or a line a process still running is writing.
  const lines = text
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as { document?: OpenApiDocument; answer?: Answer });
  return { document: lines.find((line) => line.document)?.document, answers: lines.flatMap((line) => (line.answer ? [line.answer] : [])) };
}

function recordingProblems({ document, answers }: ChildRecording): string[] {
  if (document) return answerProblems(document, answers);
  return answers.length ? [`an API process recorded ${answers.length} answer(s) but not its OpenAPI document`] : [];
}

/** The problems of every answer recorded since the last call, each naming its route, status and what is wrong. */
export function recordedProblems(): string[] {
  return [...recordings.splice(0), ...childRecordings()].flatMap(recordingProblems);
}

/** What in `answers` the document does not describe: an undocumented status, or a body its schema refuses (ajv, strict). */
export function answerProblems(document: OpenApiDocument, answers: readonly Answer[]): string[] {
  const routes = new Routes(document);
  const schemas = new ResponseSchemas(document);
  // One line per route, status and problem, however many answers share it.
  const problems = new Map<string, string>();
  const add = (key: string, example: string) => problems.set(key, problems.get(key) ?? `${key}; e.g. ${example.slice(0, 300)}`);
  for (const answer of answers) {
    const template = routes.template(answer.url);
    const method = answer.method.toLowerCase();
    if (!template || method === 'head' || method === 'options') continue;
    const route = `${answer.method} ${template}`;
    const operation = document.paths[template][method];
    // Express's own "Cannot PUT /actions" for a method the path does not have.
    if (!operation) {
      if (answer.status !== 404) add(`${route} → ${answer.status}: no such operation in the document`, answer.body);
      continue;
    }
    const response = operation.responses[String(answer.status)];
    if (!response) {
      add(`${route} → ${answer.status}: status not in the document (it lists ${Object.keys(operation.responses).join(', ')})`, answer.body);
      continue;
    }
    const problem = bodyProblem(answer, response.content?.['application/json']?.schema, schemas);
    if (problem) add(`${route} → ${answer.status}: ${problem}`, answer.body);
  }
  return [...problems.values()];
}

function bodyProblem(answer: Answer, schema: unknown, schemas: ResponseSchemas): string | undefined {
  if (schema === undefined) return answer.body === '' ? undefined : 'a body the document does not describe';
  if (!answer.contentType?.startsWith('application/json')) return `content-type ${answer.contentType}, not application/json`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return 'a body that is not JSON';
  }
  const validate = schemas.validator(schema);
  if (validate(body)) return undefined;
  return describeErrors(validate.errors ?? []);
}

/** ajv's errors, an item's index as `*` so that a page of twenty answers the same thing once. */
function describeErrors(errors: ErrorObject[]): string {
  const lines = errors.map(
    (error) => `${error.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '(body)'} ${error.message} ${JSON.stringify(error.params)}`,
  );
  return [...new Set(lines)].join('; ');
}

const COMPONENTS = 'openapi';

/** The answers' schemas compiled by ajv in strict mode, the document's components as one schema they refer to. */
class ResponseSchemas {
  private readonly ajv = new Ajv({ strict: true, allErrors: true, discriminator: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    // Annotations OpenAPI adds to JSON Schema: they say nothing a body is checked against.
    this.ajv.addVocabulary(['example', 'xml', 'externalDocs']);
    this.ajv.addSchema({ $id: COMPONENTS, $defs: refsToDefs(document.components?.schemas ?? {}) });
  }

  validator(schema: unknown): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(refsToDefs(schema) as object);
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

function refsToDefs(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${COMPONENTS}#/$defs/`));
}
