import { IncomingMessage, ServerResponse } from 'node:http';

/** One answer of the API as a client received it. */
export interface Answer {
  method: string;
  /** The path as requested, query included. */
  url: string;
  status: number;
  contentType?: string;
  body: string;
}

export type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>>; components?: { schemas?: Record<string, unknown> } };
export type OpenApiOperation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };

/**
 * Keeps what `res` sends and hands the whole answer to `done` as the app ends it. Shared by the
 * in-process API's recording and the preload of API processes a spec starts, so that both record
 * an answer the same way.
 */
export function captureAnswer(req: IncomingMessage, res: ServerResponse, done: (answer: Answer) => void): void {
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
    if (res.writableEnded) return end(chunk, ...rest);
    if (typeof chunk !== 'function') keep(chunk, rest[0]);
    const ended = end(chunk, ...rest);
    // Now rather than on 'finish': a client may already have the answer by then, and a spec read
    // the recording, or kill the process, before it was kept.
    done({
      method: req.method ?? '',
      url: req.url ?? '',
      status: res.statusCode,
      contentType: res.getHeader('content-type')?.toString(),
      body: Buffer.concat(chunks).toString('utf8'),
    });
    return ended;
  }) as typeof res.end;
}

function pathOf(url: string): string {
  return url.split('?')[0];
}

/** The document's path templates, a literal segment preferred over a parameter (`/actions/stats` before `/actions/{id}`). */
export class Routes {
  private readonly patterns: { template: string; pattern: RegExp; params: number }[];

  constructor(document: OpenApiDocument) {
    this.patterns = Object.keys(document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  /** The template `url` (query included or not) matches, if any. */
  template(url: string): string | undefined {
    const path = pathOf(url);
    return this.patterns.find(({ pattern }) => pattern.test(path))?.template;
  }
}
