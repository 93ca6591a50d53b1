import { LogLevel } from '@nestjs/common';

const ORDER: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Nest wants every enabled level listed: `warn` → fatal, error, warn. */
export function logLevelsUpTo(level: LogLevel): LogLevel[] {
  return ORDER.slice(0, ORDER.indexOf(level) + 1);
}
