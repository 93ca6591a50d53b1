import { looksLikeSeconds, parseApiTime } from './api-time';

describe('parseApiTime', () => {
  it.each([
    [100_000_000_000, '1973-03-03T09:46:40.000Z'],
    [1_795_731_607_000, '2026-11-26T22:20:07.000Z'],
    ['1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'],
    [Date.UTC(9999, 11, 31, 23, 59, 59, 999), '9999-12-31T23:59:59.999Z'],
    ['2031-06-01T10:00:00+02:00', '2031-06-01T08:00:00.000Z'],
    ['2024-02-29T23:59:59.5Z', '2024-02-29T23:59:59.500Z'],
    ['2031-06-01T10:00Z', '2031-06-01T10:00:00.000Z'],
  ])('reads %j as %s', (input, expected) => {
    expect(parseApiTime(input)?.toISOString()).toBe(expected);
  });

  it.each([
    0,
    1_795_731_607,
    99_999_999_999,
    -1,
    Date.UTC(10000, 0, 1),
    8.64e15,
    NaN,
    '1969-12-31T23:59:59.999Z',
    '0000-01-01T00:00:00Z',
    '+099999-01-01T00:00:00Z',
    '2025-02-30T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-01-01T24:00:00Z',
    '2025-01-01T10:60:00Z',
    '2025-01-01T10:00:00+24:00',
    '2031-06-01T10:00:00',
    'tomorrow',
    null,
    true,
  ])('refuses %j', (input) => {
    expect(parseApiTime(input)).toBeNull();
  });
});

describe('looksLikeSeconds', () => {
  it('holds for numbers below 100,000,000,000 only, never for text', () => {
    expect([1_795_731_607, 99_999_999_999, 0, -1].map(looksLikeSeconds)).toEqual([true, true, true, true]);
    expect([100_000_000_000, 1_795_731_607_000, '1795731607', null].map(looksLikeSeconds)).toEqual([false, false, false, false]);
  });
});
