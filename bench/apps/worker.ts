import { runWorker } from '@punctual/server';
import { BENCH_ADDITIONS } from './noop-action-type';

runWorker(BENCH_ADDITIONS);
