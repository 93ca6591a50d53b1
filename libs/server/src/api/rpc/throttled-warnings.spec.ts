import { Logger } from '@nestjs/common';
import { ThrottledWarnings } from './throttled-warnings';

describe('ThrottledWarnings', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('logs the first warning about each subject, then none about it for a minute, then again', () => {
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const warnings = new ThrottledWarnings(logger);

    warnings.warn('team-a', 'a 1');
    warnings.warn('team-b', 'b 1');
    jest.advanceTimersByTime(59_999);
    warnings.warn('team-a', 'a 2');
    jest.advanceTimersByTime(1);
    warnings.warn('team-a', 'a 3');

    expect(warn.mock.calls.map(([message]) => message)).toEqual(['a 1', 'b 1', 'a 3']);
  });
});
