import { runWorker } from './run-worker';

runWorker();
