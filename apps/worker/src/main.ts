import { runWorker } from '@punctual/server';

runWorker();
