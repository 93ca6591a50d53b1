import { INestApplicationContext, Logger } from '@nestjs/common';

/**
 * On SIGTERM or SIGINT: stop taking work, let what is running finish (the apps' shutdown hooks),
 * then exit 0. Nest's own signal handling re-raises the signal, which ends the process with a
 * signal status instead. A second signal exits at once.
 */
export function exitCleanlyOnSignals(app: INestApplicationContext, name: string): void {
  const logger = new Logger(name);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    logger.log(`${signal} received: finishing work in progress, then exiting`);
    app.close().then(
      () => process.exit(0),
      (error: Error) => {
        logger.error(`Shutdown failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
