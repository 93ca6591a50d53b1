import { runWorker } from '../../apps/worker/src/run-worker';
import { BENCH_ACTION_TYPES, BENCH_FULFILLMENT_MODULES } from './noop-action-type';

runWorker({ actionTypes: BENCH_ACTION_TYPES, fulfillmentModules: BENCH_FULFILLMENT_MODULES });
