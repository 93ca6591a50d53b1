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
