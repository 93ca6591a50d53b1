import { ActionTypeRegistry } from '@app/action-types';
import { InvalidActionDataError } from '@app/action-types';
import { EgressPolicy } from '@app/outbound';
import { MESSAGE } from './message.type';

describe('MESSAGE data', () => {
  const registry = new ActionTypeRegistry([MESSAGE], new EgressPolicy(), ['default', 'billing']);
  const problemsOf = async (data: object): Promise<string[]> => {
    try {
      await registry.validateData('MESSAGE', data);
      return [];
    } catch (error) {
      if (error instanceof InvalidActionDataError) return error.problems;
      throw error;
    }
  };

  it('accepts a pattern with any JSON payload, on the default or a configured transport', async () => {
    expect(await problemsOf({ pattern: 'billing.downgrade', payload: { accountId: 'a1', constructor: 1 } })).toEqual([]);
    expect(await problemsOf({ pattern: 'p', payload: [1, 'x'], transport: 'billing', expectReply: false, timeoutMs: 500 })).toEqual([]);
  });

  it('refuses a transport MESSAGE_TRANSPORTS does not name, listing the ones it does', async () => {
    expect(await problemsOf({ pattern: 'p', transport: 'elsewhere' })).toEqual([
      'data.transport: transport "elsewhere" is not configured; MESSAGE_TRANSPORTS names billing, default',
    ]);
  });

  it.each([
    [{}, 'data.pattern: pattern must be longer than or equal to 1 characters'],
    [{ pattern: 'x'.repeat(201) }, 'data.pattern: pattern must be shorter than or equal to 200 characters'],
    [{ pattern: 'p', transport: 5 }, 'data.transport: transport must be a string'],
    [{ pattern: 'p', expectReply: 'yes' }, 'data.expectReply: expectReply must be a boolean value'],
    [{ pattern: 'p', timeoutMs: 0 }, 'data.timeoutMs: timeoutMs must not be less than 1'],
    [{ pattern: 'p', extra: 1 }, 'data.extra: property extra should not exist'],
    [
      { pattern: 'billing.x y' },
      'data.pattern: pattern "billing.x y" is not a message pattern: use visible ASCII characters without spaces, "*" or ">" (a prefix ends in "." and allows every pattern that starts with it)',
    ],
    [{ pattern: 'billing.x\r\nPUB billing.y 1' }, expect.stringMatching(/^data\.pattern: pattern [\s\S]* is not a message pattern/)],
    [{ pattern: 'billing.>' }, expect.stringMatching(/^data\.pattern: pattern "billing\.>" is not a message pattern/)],
    [{ pattern: 'billing.*' }, expect.stringMatching(/^data\.pattern: pattern "billing\.\*" is not a message pattern/)],
    [{ pattern: 'bílling.x' }, expect.stringMatching(/^data\.pattern: pattern "bílling\.x" is not a message pattern/)],
  ])('refuses %j', async (data, problem) => {
    expect(await problemsOf(data)).toEqual(expect.arrayContaining([problem]));
  });
});
