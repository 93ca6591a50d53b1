import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { eventLoopTurnsDuring } from '@app/testing';
import { CreateBatchDto } from '../actions/dto/create-batch.dto';
import { fieldProblems } from '../input/field-problems';
import { ApiValidationPipe } from './api-validation.pipe';

const BODY = { type: 'body', metatype: CreateBatchDto } as const;
const ok = { action: 'HTTP_REQUEST', data: { url: 'https://example.com/hook' }, executionTime: '2031-01-01T00:00:00Z' };

/** What the pipe answers: the instance, or the messages of its 400. */
async function answer(pipe: ValidationPipe, body: unknown): Promise<unknown> {
  try {
    return await pipe.transform(structuredClone(body), BODY);
  } catch (error) {
    if (error instanceof BadRequestException) return error.getResponse();
    throw error;
  }
}

describe('A batch checked in slices', () => {
  const sliced = new ApiValidationPipe();
  // Nest's pipe with the same options: it checks the whole batch in one go.
  const whole = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => new BadRequestException(fieldProblems(errors)),
  });

  it.each([
    ['bad items among good ones', { items: [{}, { action: 1, data: 'x' }, ok, { ...ok, unknown: 1 }] }],
    ['items that are no objects', { items: [1, null, 'x', [], [{}], [ok]] }],
    ['items that are no array', { items: 'x' }],
    ['no items', { items: [] }],
    ['too many items, some bad', { items: Array.from({ length: 1001 }, (_, i) => (i % 300 === 0 ? { ...ok, action: 5 } : ok)) }],
    ['an unknown field beside the items', { items: [ok], extra: 1 }],
    [
      'nested fields wrong',
      {
        items: [
          { ...ok, retryPolicy: { maxAttempts: 'x' } },
          { ...ok, dstPolicy: { gap: 'x' } },
        ],
      },
    ],
    ['every field of every item wrong', { items: Array.from({ length: 300 }, () => ({ ...ok, action: 7, repeat: 'x', cron: 5, jitterMs: 'x', zzz: 1 })) }],
    ['good items', { items: [ok, { ...ok, repeat: true, cron: '0 * * * *' }] }],
  ])('answers exactly as checking it whole: %s', async (_, body) => {
    expect(await answer(sliced, body)).toEqual(await answer(whole, body));
  });

  it('lets the event loop run while it checks a thousand items, where checking them whole holds it throughout', async () => {
    const body = { items: Array.from({ length: 1000 }, () => ({ ...ok, repeat: true, cron: '0 * * * *', timezone: 'Europe/Berlin' })) };
    expect(await eventLoopTurnsDuring(() => whole.transform(structuredClone(body), BODY))).toBe(0);
    expect(await eventLoopTurnsDuring(() => sliced.transform(structuredClone(body), BODY))).toBeGreaterThan(0);
  });
});
