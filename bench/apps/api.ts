import { runApi } from '@punctual/server';
import { BENCH_ADDITIONS } from './noop-action-type';

runApi(BENCH_ADDITIONS);
