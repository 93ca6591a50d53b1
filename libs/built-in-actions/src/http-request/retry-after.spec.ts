import { retryAfterOf } from './retry-after';

describe('Retry-After', () => {
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Wed, 01 Jan 2025 00:01:00 GMT', 60_000],
    ['Wednesday, 01-Jan-25 00:00:30 GMT', 30_000],
    ['Tue, 31 Dec 2024 23:00:00 GMT', 0],
    ['-5', null],
    ['1.5', null],
    ['', null],
    [undefined, null],
    ['2025-01-01', null],
  ])('reads Retry-After %p as %p ms', (value, expected) => {
    expect(retryAfterOf(value, new Date('2025-01-01T00:00:00Z'))).toBe(expected);
  });
});
