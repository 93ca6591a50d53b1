import { runApi } from './run-api';

runApi();
