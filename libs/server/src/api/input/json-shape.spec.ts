import { MAX_JSON_DEPTH, jsonShapeProblems } from './json-shape';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
}

describe('jsonShapeProblems', () => {
  it('accepts ordinary JSON, special key names included', () => {
    expect(jsonShapeProblems({ data: { constructor: 1, toString: [{ valueOf: 'é 😀' }] }, n: 1e308 })).toEqual([]);
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more, naming where`, () => {
    expect(jsonShapeProblems(nested(MAX_JSON_DEPTH))).toEqual([]);
    expect(jsonShapeProblems(nested(MAX_JSON_DEPTH + 1))).toEqual([expect.stringMatching(/^a\.0\.a\.0\..* nests deeper than 32 levels/)]);
  });

  it('refuses a deep body without recursing through all of it', () => {
    expect(jsonShapeProblems(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)))).toHaveLength(1);
  });

  it('names U+0000 and unpaired surrogates in values and keys, at any depth', () => {
    const body = JSON.parse('{"data":{"list":["ok","a\\u0000b"],"k\\u0000":1},"metadata":{"x":{"y":"\\ud800"}}}');
    expect(jsonShapeProblems(body)).toEqual([
      'data.list.1 must not contain the character U+0000',
      'data["k\\u0000"]: the key must not contain the character U+0000',
      'metadata.x.y must not contain an unpaired UTF-16 surrogate (\\uD800–\\uDFFF)',
    ]);
  });

  it('refuses __proto__ keys and numbers beyond a double', () => {
    expect(jsonShapeProblems(JSON.parse('{"metadata":{"__proto__":{"admin":true}},"n":1e400}'))).toEqual([
      'metadata.__proto__: a key named __proto__ is not accepted',
      'n must be a finite number',
    ]);
  });
});
