import { ConsoleLogger } from '@nestjs/common';
import { Logger as NestPinoLogger } from 'nestjs-pino';

/**
 * Nest's startup lines naming every module and every route it mapped: a few hundred lines that
 * bury the banner and any warning. They are kept, at debug (LOG_LEVEL=debug shows them).
 */
const STARTUP_DETAIL = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

function isStartupDetail(params: unknown[]): boolean {
  const context = params[params.length - 1];
  return typeof context === 'string' && STARTUP_DETAIL.has(context);
}

/** Nest's readable logger, with its startup details at debug. */
export class QuietConsoleLogger extends ConsoleLogger {
  log(message: unknown, ...params: unknown[]): void {
    if (isStartupDetail(params)) this.debug(message, ...params);
    else super.log(message, ...params);
  }
}

/** The JSON logger, with Nest's startup details at debug. */
export class QuietPinoLogger extends NestPinoLogger {
  log(message: unknown, ...params: unknown[]): void {
    if (isStartupDetail(params)) this.debug(message, ...params);
    else super.log(message, ...params);
  }
}
