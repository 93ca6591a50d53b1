import { INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ActionTypeDefinition } from '@punctual/sdk';
import { WorkerHttpServer, WorkerModule } from '@app/server';
import { withEnv } from './with-env';

export interface WorkerTestOptions {
  actionTypes?: readonly ActionTypeDefinition[];
  fulfillmentModules?: readonly Type[];
  /** Environment for this worker only, e.g. WORKER_ACTIONS. */
  env?: Record<string, string>;
  /**
   * Providers replaced in this worker: the `HostResolver` seam so that a name resolves where a spec
   * wants, or the `Clock` for a worker whose clock runs ahead.
   */
  overrides?: readonly { provide: Type | string | symbol; useValue: unknown }[];
}

/** Boots the real worker module in this process; close it to stop consuming. */
export function startWorker(options: WorkerTestOptions = {}): Promise<INestApplicationContext> {
  return withEnv(options.env, async () => {
    const builder = Test.createTestingModule({
      imports: [WorkerModule.forRoot({ actionTypes: options.actionTypes, fulfillmentModules: options.fulfillmentModules })],
    });
    for (const { provide, useValue } of options.overrides ?? []) builder.overrideProvider(provide).useValue(useValue);
    const moduleRef = await builder.compile();
    moduleRef.useLogger(['error', 'warn']);
    await moduleRef.init();
    return moduleRef;
  });
}

/** Base URL of a started worker's metrics and health server (it took a free port). */
export function workerHttpUrl(worker: INestApplicationContext): string {
  return `http://127.0.0.1:${worker.get(WorkerHttpServer).port()}`;
}
