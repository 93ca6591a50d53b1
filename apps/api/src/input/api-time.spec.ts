import { parseApiTime } from './api-time';

describe('parseApiTime', () => {
  it.each([
    [0, '1970-01-01T00:00:00.000Z'],
    [Date.UTC(9999, 11, 31, 23, 59, 59, 999), '9999-12-31T23:59:59.999Z'],
    ['2031-06-01T10:00:00+02:00', '2031-06-01T08:00:00.000Z'],
    ['2024-02-29T23:59:59.5Z', '2024-02-29T23:59:59.500Z'],
    ['2031-06-01T10:00Z', '2031-06-01T10:00:00.000Z'],
  ])('reads %j as %s', (input, expected) => {
    expect(parseApiTime(input)?.toISOString()).toBe(expected);
  });

  it.each([
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
