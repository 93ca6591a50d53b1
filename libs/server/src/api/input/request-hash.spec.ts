import { requestHash } from './request-hash';

describe('requestHash', () => {
  it('ignores key order and whitespace', () => {
    const a = JSON.parse('{"action":"X","data":{"b":[1,{"y":2,"x":1}],"a":null}}');
    const b = JSON.parse('{ "data" : { "a" : null, "b" : [ 1, { "x" : 1, "y" : 2 } ] }, "action" : "X" }');
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart bodies that differ in a value, in array order or in nesting', () => {
    const hashes = [{ a: [1, 2] }, { a: [2, 1] }, { a: ['1', 2] }, { a: { 0: 1, 1: 2 } }, { a: [1, 2], b: null }].map(requestHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});
