/**
 * The floor of ingest: an HTTP process that enqueues and does nothing else. `POST /actions` adds
 * its body to BullMQ as one job delayed until its `executionTime`; `POST /actions/batch` adds its
 * `items` with one `addBulk`. No signature check, no validation, no Postgres. Run as a process of
 * its own on `PORT` (`startIngestServer`), answering as Punctual's API does: 201 and JSON.
 */
import { ChildProcess } from 'node:child_process';
import { createServer, IncomingMessage } from 'node:http';
import { Queue } from 'bullmq';
import { redisOptionsFromUrl } from '@punctual/contract';
import { BENCH_ENV } from '../bench-env';
import { startBaselineProcess } from './baseline-process';

const QUEUE = 'ingest-baseline';
const PREFIX = 'bench-ingest';

interface Create {
  executionTime: number | string;
}

const openQueue = () => new Queue(QUEUE, { connection: redisOptionsFromUrl(BENCH_ENV.REDIS_URL), prefix: PREFIX });

/** Empties its queue: it has no worker, so every job it was given is still there. */
export async function obliterateIngestJobs(): Promise<void> {
  const queue = openQueue();
  await queue.obliterate({ force: true });
  await queue.close();
}

export const startIngestServer = (port: number): Promise<ChildProcess> => startBaselineProcess('bullmq-ingest-server.ts', { PORT: String(port) });

async function jsonBody<T>(request: IncomingMessage): Promise<T> {
  let text = '';
  for await (const chunk of request.setEncoding('utf8')) text += chunk as string;
  return JSON.parse(text) as T;
}

function serve(port: number): void {
  const queue = openQueue();
  const job = (data: Create) => ({ name: 'noop', data, opts: { delay: Math.max(0, new Date(data.executionTime).getTime() - Date.now()) } });
  const routes: Record<string, (request: IncomingMessage) => Promise<object>> = {
    '/actions': async (request) => {
      const { name, data, opts } = job(await jsonBody<Create>(request));
      return { id: (await queue.add(name, data, opts)).id };
    },
    '/actions/batch': async (request) => {
      const { items } = await jsonBody<{ items: Create[] }>(request);
      return { ids: (await queue.addBulk(items.map(job))).map((added) => added.id) };
    },
  };
  const server = createServer((request, response) => {
    const route = request.method === 'POST' ? routes[request.url ?? ''] : undefined;
    if (!route) return void response.writeHead(404).end();
    route(request).then(
      (body) => response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      (error: Error) => response.writeHead(500).end(error.message),
    );
  });
  server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => void queue.close().then(() => process.exit(0)));
}

if (require.main === module) serve(Number(process.env.PORT));
