import { plainToInstance } from 'class-transformer';
import { IsObject } from 'class-validator';
import { originalOf, transformSafeCopy } from './transform-safe-copy';

class Holder {
  @IsObject()
  inner: object;
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);
const VALUES = [1, 'x', null, true, {}, [], { a: 1 }, [1, { constructor: 2 }]];

describe('transformSafeCopy', () => {
  it('class-transformer crashes on a nested "constructor" key without it', () => {
    expect(() => plainToInstance(Holder, JSON.parse('{"inner":{"a":{"constructor":1}}}'))).toThrow(TypeError);
  });

  it.each(PROTOTYPE_KEYS)('lets class-transformer walk any value under a key named %s, at any depth', (key) => {
    for (const value of VALUES) {
      const body = JSON.parse(JSON.stringify({ inner: { [key]: value, deeper: [{ [key]: value }] } }));
      expect(() => plainToInstance(Holder, transformSafeCopy(body))).not.toThrow();
    }
  });

  it('leaves out constructor and __proto__, keeps the rest, and remembers each original', () => {
    const sent = JSON.parse('{"a":{"constructor":1,"toString":2,"__proto__":{"x":1},"list":[{"valueOf":3}]}}');
    const copy = transformSafeCopy(sent);
    expect(JSON.stringify(copy)).toBe('{"a":{"toString":2,"list":[{"valueOf":3}]}}');
    expect(originalOf(copy)).toBe(sent);
    expect(originalOf(copy.a)).toBe(sent.a);
    expect(originalOf(sent)).toBe(sent);
  });

  it('returns a value that holds no such key as it is, and copies one that holds "prototype" anywhere', () => {
    const plain = JSON.parse('{"a":{"toString":2,"list":[{"valueOf":3}]}}');
    expect(transformSafeCopy(plain)).toBe(plain);
    const withPrototype = JSON.parse('{"a":{"list":[{"prototype":3}]}}');
    const copy = transformSafeCopy(withPrototype);
    expect(copy).not.toBe(withPrototype);
    expect(copy.a.list[0]).not.toBe(withPrototype.a.list[0]);
    expect(copy).toEqual(withPrototype);
    expect(originalOf(copy.a.list[0])).toBe(withPrototype.a.list[0]);
  });
});
