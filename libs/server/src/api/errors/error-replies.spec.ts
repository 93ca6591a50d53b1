import { BadRequestException } from '@nestjs/common';
import { InvalidActionDataError, UnknownActionTypeError } from '@app/action-types';
import { DATABASE_UNAVAILABLE_MESSAGE, IdempotencyKeyReusedError } from '@app/database';
import { ErrorCode, InvalidChangeError, PunctualDomainError, TransitionRefusedError } from '@app/domain';
import { NonceStoreUnavailableError, SignatureError } from '@app/signature';
import { ConsoleInputError } from '../console/console-input';
import { CsrfRefusedError } from '../console/security/csrf.guard';
import { unavailableReply } from '../http/unavailable-exception.filter';
import { ActionNotFoundError, InvalidRequestError } from './action.errors';
import { ERROR_ANSWERS, domainErrorReply } from './error-replies';
import {
  DeliveryNotFoundError,
  DeliveryPendingError,
  TooManySubscriptionsError,
  WebhookNotFoundError,
  WebhooksNotConfiguredError,
} from './webhook.errors';

/** Every error class of ours, the code it carries and the answer it gets, as HTTP and RPC callers see it. */
const ANSWERED: [PunctualDomainError, ErrorCode, number, string][] = [
  [new ActionNotFoundError('a1'), ErrorCode.ActionNotFound, 404, 'Not Found'],
  [new WebhookNotFoundError('w1'), ErrorCode.WebhookNotFound, 404, 'Not Found'],
  [new DeliveryNotFoundError('w1', 'd1'), ErrorCode.DeliveryNotFound, 404, 'Not Found'],
  [new DeliveryPendingError('d1'), ErrorCode.DeliveryPending, 409, 'Conflict'],
  [new WebhooksNotConfiguredError(), ErrorCode.WebhooksNotConfigured, 503, 'Service Unavailable'],
  [new TooManySubscriptionsError(100), ErrorCode.TooManySubscriptions, 409, 'Conflict'],
  [new TransitionRefusedError('the action is running'), ErrorCode.TransitionRefused, 409, 'Conflict'],
  [new InvalidChangeError('frequency is required'), ErrorCode.InvalidChange, 400, 'Bad Request'],
  [new InvalidRequestError('id must be a UUID'), ErrorCode.InvalidRequest, 400, 'Bad Request'],
  [new UnknownActionTypeError('NOPE', ['HTTP_REQUEST']), ErrorCode.UnknownActionType, 400, 'Bad Request'],
  [new ConsoleInputError('limit', 'must be a whole number from 1 to 500'), ErrorCode.InvalidConsoleInput, 400, 'Bad Request'],
  [new IdempotencyKeyReusedError('k1'), ErrorCode.IdempotencyKeyReused, 422, 'Unprocessable Entity'],
  [new SignatureError('Missing header X-Punctual-Key'), ErrorCode.SignatureRefused, 401, 'Unauthorized'],
  [new CsrfRefusedError('it was sent from another site'), ErrorCode.CsrfRefused, 403, 'Forbidden'],
  [new NonceStoreUnavailableError(), ErrorCode.StoreUnavailable, 503, 'Service Unavailable'],
];

describe('Error answers', () => {
  it('answer every error code exactly once', () => {
    expect(Object.keys(ERROR_ANSWERS).sort()).toEqual(Object.values(ErrorCode).sort());
  });

  it.each(ANSWERED.map(([error, code, statusCode, label]) => ({ type: error.constructor.name, error, code, statusCode, label })))(
    '$type: $code → $statusCode $label with its message',
    ({ error, code, statusCode, label }) => {
      expect(error.code).toBe(code);
      expect(domainErrorReply(error)).toEqual({ statusCode, error: label, message: error.message });
    },
  );

  it('invalid data is answered with its problems, one per field', () => {
    const problems = ['data.url must be a URL', 'data.method must be one of GET, POST'];
    const error = new InvalidActionDataError(problems);
    expect(error.code).toBe(ErrorCode.InvalidActionData);
    expect(domainErrorReply(error)).toEqual({ statusCode: 400, error: 'Bad Request', message: problems });
  });

  describe('an unreachable or slow database', () => {
    it('unreachable → 503 saying nothing was changed', () => {
      expect(unavailableReply(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 5000)).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: DATABASE_UNAVAILABLE_MESSAGE,
      });
    });

    it('past the statement timeout → 503 naming the timeout', () => {
      const cancelled = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
      expect(unavailableReply(cancelled, 5000)).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: expect.stringContaining('statement timeout of 5000 ms') as string,
      });
    });

    it('any other error, or one Nest already answers, is left to the next handler', () => {
      expect(unavailableReply(new Error('boom'), 5000)).toBeNull();
      expect(unavailableReply(new TransitionRefusedError('the action is running'), 5000)).toBeNull();
      expect(unavailableReply(new BadRequestException('Connection terminated'), 5000)).toBeNull();
    });
  });
});
