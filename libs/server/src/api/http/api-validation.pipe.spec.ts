import { BadRequestException } from '@nestjs/common';
import { ActionTypeRegistry } from '@app/action-types';
import { BUILT_IN_ACTION_TYPES } from '@app/built-in-actions';
import { CreateActionDto } from '../actions/dto/create-action.dto';
import { CreateBatchDto } from '../actions/dto/create-batch.dto';
import { UpdateActionDto } from '../actions/dto/update-action.dto';
import { ApiValidationPipe } from './api-validation.pipe';

const pipe = new ApiValidationPipe(new ActionTypeRegistry(BUILT_IN_ACTION_TYPES));
const ok = { action: 'HTTP_REQUEST', data: { url: 'https://example.com/hook' }, executionTime: '2031-01-01T00:00:00Z' };

/** The messages of the pipe's 400 for `body` as a `dto`. */
async function problems(body: unknown, dto: object = CreateActionDto): Promise<string[]> {
  try {
    await pipe.transform(body, { type: 'body', metatype: dto as never });
  } catch (error) {
    if (error instanceof BadRequestException) return (error.getResponse() as { message: string[] }).message;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('A refused body lists every problem once, in Punctual’s words', () => {
  it('a field left out is required', async () => {
    expect(await problems({})).toEqual(['action is required', 'executionTime is required', 'data is required']);
    // A field required on a condition keeps the condition.
    expect(await problems({ ...ok, repeat: true })).toEqual([
      'frequency is required when repeat is true',
      'executionRemainder is required when repeat is true (optional with cron: absent means no limit)',
    ]);
  });

  it('a field that breaks several rules gets one message', async () => {
    expect(await problems({ ...ok, repeat: true, frequency: 'DAILY', executionRemainder: 0.5 })).toEqual([
      'executionRemainder must be an integer ≥ 1 (at most 2147483647) when repeat is true (optional with cron: absent means no limit)',
    ]);
    expect(await problems({ ...ok, action: 7 })).toEqual(['action must be a string']);
    expect(await problems({ ...ok, metadata: null })).toEqual(['metadata must not be null']);
  });

  it('an unknown field names the known one it most likely misspells', async () => {
    const { executionTime, ...rest } = ok;
    expect(await problems({ ...rest, executeAt: executionTime })).toEqual([
      'property executeAt should not exist; did you mean executionTime?',
      'executionTime is required',
    ]);
    expect(await problems({ ...ok, colour: 'red' })).toEqual(['property colour should not exist']);
    expect(await problems({ callbackURL: 'https://example.com' }, UpdateActionDto)).toEqual([
      'property callbackURL should not exist; did you mean callbackUrl?',
    ]);
  });

  it('a nested object reports each of its problems', async () => {
    expect(await problems({ ...ok, retryPolicy: { maxRetries: 99, backoff: { type: 'fixed', delayMs: 5, extra: 1 } } })).toEqual([
      'retryPolicy.maxRetries must be an integer from 0 to 25',
      'retryPolicy.backoff.extra should not exist',
      'retryPolicy.backoff.delayMs must be an integer of ms from 100 to 604800000 (7 days)',
    ]);
    expect(await problems({ ...ok, dstPolicy: { gap: 'jump', overlap: 'all' } })).toEqual([
      'dstPolicy.gap must be one of shift, skip',
      'dstPolicy.overlap must be one of first, last, both',
    ]);
  });

  it('the problems of data come in the same answer as those of the rest', async () => {
    expect(await problems({ ...ok, executionTime: 'soon', data: { url: 'ftp://example.com', method: 'FETCH' } })).toEqual([
      expect.stringMatching(/^executionTime must be epoch milliseconds/),
      ...(await dataProblems({ url: 'ftp://example.com', method: 'FETCH' }, 'data')),
    ]);
  });

  it('in a batch, each item’s problems and its data’s are named by its place', async () => {
    const found = await problems({ items: [ok, { ...ok, repeat: 'yes', data: { url: 42 } }, { action: 'HTTP_REQUEST', data: {} }] }, CreateBatchDto);
    expect(found).toEqual([
      'items.1.repeat must be a boolean value',
      'items.2.executionTime is required',
      ...(await dataProblems({ url: 42 }, 'items.1.data')),
      ...(await dataProblems({}, 'items.2.data')),
    ]);
    expect(found.filter((problem) => problem.startsWith('items.1.data')).length).toBeGreaterThan(0);
  });
});

/** What the registry alone says of an HTTP_REQUEST's data: the answer must hold exactly these. */
async function dataProblems(data: object, path: string): Promise<string[]> {
  try {
    await new ActionTypeRegistry(BUILT_IN_ACTION_TYPES).validateData('HTTP_REQUEST', data, path);
  } catch (error) {
    return (error as { problems: string[] }).problems;
  }
  throw new Error('the data was accepted');
}
