import { runApi } from '@punctual/server';

runApi();
