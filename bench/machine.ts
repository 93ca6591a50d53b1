import { cpus, totalmem } from 'node:os';

/** The machine the figures were measured on, recorded beside them. */
export const MACHINE = { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
