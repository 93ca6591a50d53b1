import { INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ActionTypeDefinition } from '@app/fulfillment';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { withEnv } from './with-env';

export interface WorkerTestOptions {
  actionTypes?: readonly ActionTypeDefinition[];
  fulfillmentModules?: readonly Type[];
  /** Environment for this worker only, e.g. WORKER_ACTIONS. */
  env?: Record<string, string>;
}

/** Boots the real worker module in this process; close it to stop consuming. */
export function startWorker(options: WorkerTestOptions = {}): Promise<INestApplicationContext> {
  return withEnv(options.env, async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [WorkerModule.forRoot({ actionTypes: options.actionTypes, fulfillmentModules: options.fulfillmentModules })],
    }).compile();
    moduleRef.useLogger(['error', 'warn']);
    await moduleRef.init();
    return moduleRef;
  });
}
