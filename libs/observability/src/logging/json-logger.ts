import { LoggerService } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import pino, { DestinationStream, Logger, LevelWithSilent } from 'pino';
import { PunctualConfig, logLevelsUpTo } from '@app/config';
import { QuietConsoleLogger, QuietPinoLogger } from './quiet-startup-logger';
import { configuredSecrets, secretScrubber } from './secret-scrubber';

const PINO_LEVELS: Record<PunctualConfig['logLevel'], LevelWithSilent> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/**
 * Where a value is known to hold credentials in an object someone might log: request headers and
 * an HTTP_REQUEST action's own headers. Message strings are covered by the secret scrubber.
 */
const REDACTED_PATHS = [
  'headers.authorization',
  'headers["x-punctual-signature"]',
  '*.headers.authorization',
  '*.headers["x-punctual-signature"]',
  'data.headers.*',
  '*.data.headers.*',
];

/**
 * One JSON object per line: `level` (pino's label: info, warn…), `time` (ISO 8601), `msg`,
 * `context` (the Nest logger's name), and the fields a FieldLogger adds (`requestId` on the API's
 * access lines; `actionId`, `occurrence`, `attempt` on a worker's lines about an attempt).
 */
export function createJsonLogger(config: PunctualConfig, destination?: DestinationStream): Logger {
  return pino(
    {
      level: PINO_LEVELS[config.logLevel],
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      hooks: { streamWrite: secretScrubber(configuredSecrets(config)) },
    },
    destination,
  );
}

/**
 * The `logger` option a process gives Nest: its own readable logger filtered to LOG_LEVEL by
 * default, JSON lines through nestjs-pino with LOG_FORMAT=json; either with the startup details at debug.
 */
export function appLogger(config: PunctualConfig): LoggerService {
  if (config.logFormat === 'text') return new QuietConsoleLogger({ logLevels: logLevelsUpTo(config.logLevel) });
  const params = { pinoHttp: { logger: createJsonLogger(config) } };
  return new QuietPinoLogger(new PinoLogger(params), params);
}
