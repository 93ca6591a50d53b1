import { runApi } from '../../apps/api/src/run-api';
import { BENCH_ACTION_TYPES } from './noop-action-type';

runApi(BENCH_ACTION_TYPES);
