import { HTTP_REQUEST } from './http-request/http-request.type';
import { ActionTypeRegistry } from '@app/action-types';
import { dataProblems } from '@app/testing';

describe('ActionTypeRegistry.validateData', () => {
  const registry = new ActionTypeRegistry([HTTP_REQUEST]);

  const problemsOf = (data: object) => dataProblems(registry, 'HTTP_REQUEST', data);

  it('accepts keys named like Object.prototype members inside free-form values', async () => {
    const body = { constructor: 1, toString: 'x', valueOf: [1], hasOwnProperty: { constructor: null } };
    expect(await problemsOf({ url: 'https://example.com', body, headers: { constructor: 'c', toString: 't' } })).toEqual([]);
  });

  it('names such keys as unknown fields where the schema is strict', async () => {
    expect(await problemsOf({ url: 'https://example.com', constructor: 1, toString: 2 })).toEqual([
      'data.constructor: property constructor should not exist',
      'data.toString: property toString should not exist',
    ]);
  });

  it('validates every key of a plain value, including the ones class-transformer would drop', async () => {
    expect(await problemsOf({ url: 'https://example.com', headers: { valueOf: 5 } })).toEqual([
      'data.headers: headers must be an object whose values are strings',
    ]);
  });
});
