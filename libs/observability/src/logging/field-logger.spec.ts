import { ConsoleLogger, Logger } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { Writable } from 'node:stream';
import pino from 'pino';
import { FieldLogger } from './field-logger';

describe('FieldLogger', () => {
  const lines: Record<string, unknown>[] = [];
  const texts: unknown[][] = [];

  afterEach(() => {
    lines.length = 0;
    texts.length = 0;
  });
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  it('adds its fields to each JSON line, through nestjs-pino, beside the context', () => {
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
    const params = { pinoHttp: { logger: pino({ level: 'debug' }, sink) } };
    Logger.overrideLogger(new NestPinoLogger(new PinoLogger(params), params));
    const logger = new FieldLogger('ActionProcessor', { actionId: 'a1', occurrence: 2, attempt: 3 }, true);
    logger.warn('attempt 3 failed');
    logger.error('outcome lost', 'Error: outcome lost\n    at record');
    expect(lines[0]).toMatchObject({ msg: 'attempt 3 failed', context: 'ActionProcessor', actionId: 'a1', occurrence: 2, attempt: 3 });
    expect(lines[1]).toMatchObject({ msg: 'outcome lost', stack: 'Error: outcome lost\n    at record', actionId: 'a1' });
  });

  it('passes text lines on as they are: the context name already says what they are about', () => {
    const recorder = new ConsoleLogger();
    recorder.warn = (...args: unknown[]) => void texts.push(args);
    Logger.overrideLogger(recorder);
    new FieldLogger('HTTP_REQUEST a1:2', { actionId: 'a1' }, false).warn('Calling without a signature');
    expect(texts).toEqual([['Calling without a signature', 'HTTP_REQUEST a1:2']]);
  });
});
