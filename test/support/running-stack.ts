import { INestApplicationContext } from '@nestjs/common';
import { HttpReceiver } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './api-test-app';
import { startWorker } from './worker-test-app';

export interface RunningStack {
  api: ApiTestApp;
  worker: INestApplicationContext;
  receiver: HttpReceiver;
}

/**
 * The API (on empty tables and queues), one worker and a local HTTP receiver, started before the
 * spec file's tests and stopped after them. Read the fields inside tests, once they are set.
 */
export function useRunningStack(env: { api?: Record<string, string>; worker?: Record<string, string> } = {}): RunningStack {
  const stack = { receiver: new HttpReceiver() } as RunningStack;
  beforeAll(async () => {
    await stack.receiver.start();
    stack.api = await startCleanApiApp(undefined, env.api);
    stack.worker = await startWorker({ env: env.worker });
  });
  afterAll(async () => {
    await stack.worker.close();
    await stack.api.close();
    await stack.receiver.stop();
  });
  return stack;
}

/** Creates an HTTP_REQUEST action that calls the stack's receiver at `path`; the test fails unless it is stored (201). */
export async function createCalling(stack: RunningStack, path: string, extra: object = {}) {
  const response = await stack.api.client.post('/actions', { action: 'HTTP_REQUEST', data: { url: stack.receiver.url(path) }, ...extra });
  expect(response.status).toBe(201);
  return response.body;
}

/** The action as GET /actions/:id answers it. */
export async function readAction(stack: RunningStack, id: string) {
  return (await stack.api.client.get(`/actions/${id}`)).body;
}
