import { Server, ServerResponse } from 'node:http';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** One answer of the API as a client received it. */
export interface Answer {
  method: string;
  /** The path as requested, query included. */
  url: string;
  status: number;
  contentType?: string;
  body: string;
}

type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };
type Operation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };

const recordings: { document: Document; answers: Answer[] }[] = [];

/**
 * Keeps every answer `server` gives on a route of `document` (its own OpenAPI document), for
 * `unrecordedProblems` to check at the end of the spec file.
 */
export function recordAnswers(server: Server, document: Document): void {
  const recording = { document, answers: [] as Answer[] };
  recordings.push(recording);
  const routes = new Routes(document);
  server.prependListener('request', (req, res: ServerResponse) => {
    if (!routes.template(pathOf(req.url ?? ''))) return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk)
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.once('finish', () =>
      recording.answers.push({
        method: req.method ?? '',
        url: req.url ?? '',
        status: res.statusCode,
        contentType: res.getHeader('content-type')?.toString(),
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
}

/** The problems of every answer recorded since the last call, each naming its route, status and what is wrong. */
export function recordedProblems(): string[] {
  return recordings.splice(0).flatMap(({ document, answers }) => answerProblems(document, answers));
}

/** What in `answers` the document does not describe: an undocumented status, or a body its schema refuses (ajv, strict). */
export function answerProblems(document: Document, answers: readonly Answer[]): string[] {
  const routes = new Routes(document);
  const schemas = new ResponseSchemas(document);
  // One line per route, status and problem, however many answers share it.
  const problems = new Map<string, string>();
  const add = (key: string, example: string) => problems.set(key, problems.get(key) ?? `${key}; e.g. ${example.slice(0, 300)}`);
  for (const answer of answers) {
    const template = routes.template(pathOf(answer.url));
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

function pathOf(url: string): string {
  return url.split('?')[0];
}

/** The document's path templates, a literal segment preferred over a parameter (`/actions/stats` before `/actions/{id}`). */
class Routes {
  private readonly patterns: { template: string; pattern: RegExp; params: number }[];

  constructor(document: Document) {
    this.patterns = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  template(path: string): string | undefined {
    return this.patterns.find(({ pattern }) => pattern.test(path))?.template;
  }
}

const COMPONENTS = 'openapi';

/** The answers' schemas compiled by ajv in strict mode, the document's components as one schema they refer to. */
class ResponseSchemas {
  private readonly ajv = new Ajv({ strict: true, allErrors: true, discriminator: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: Document) {
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
