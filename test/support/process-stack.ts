import { INestApplicationContext } from '@nestjs/common';
import { ActionTypeDefinition } from '@punctual/sdk';
import { HttpReceiver } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './api-test-app';
import { AppProcess } from './app-process';

export interface ProcessStack {
  api: ApiTestApp;
  receiver: HttpReceiver;
  /** App processes a test started: SIGKILLed after it. */
  processes: AppProcess[];
  /** An in-process worker a test started: closed after it. */
  worker?: INestApplicationContext;
}

/**
 * For specs that start and kill real app processes: the API in this process (on empty tables and
 * queues) and a local HTTP receiver for the whole file, and whatever processes and worker each
 * test starts, stopped after it. Read the fields inside tests, once they are set.
 */
export function useProcessStack(env: Record<string, string>, actionTypes?: readonly ActionTypeDefinition[]): ProcessStack {
  const stack = { receiver: new HttpReceiver(), processes: [] as AppProcess[] } as ProcessStack;
  beforeAll(async () => {
    await stack.receiver.start();
    stack.api = await startCleanApiApp(actionTypes, env);
  });
  afterEach(async () => {
    for (const child of stack.processes.splice(0)) child.kill('SIGKILL');
    await stack.worker?.close();
    stack.worker = undefined;
    stack.receiver.holdNext(0);
  });
  afterAll(async () => {
    await stack.api.close();
    await stack.receiver.stop();
  });
  return stack;
}
