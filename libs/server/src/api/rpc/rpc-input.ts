import { BadRequestException, Type } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { InvalidRequestError } from '../errors/action.errors';
import { ApiValidationPipe } from '../http/api-validation.pipe';
import { unknownFieldProblem } from '../input/field-problems';

const plainPipe = new ApiValidationPipe();

/**
 * `value` checked and turned into `dto` by the pipe HTTP bodies and queries go through: the same
 * rules, the same messages. Bodies that hold an action's data pass a pipe that knows the action types.
 */
export async function validated<T>(dto: Type<T>, value: unknown, pipe = plainPipe): Promise<T> {
  return (await pipe.transform(value, { type: 'body', metatype: dto })) as T;
}

/**
 * The fields of a message body that wraps its HTTP twin's parts (`{ id, changes }`): an object
 * with no field but `allowed`, answered as an unknown body field would be.
 */
export function envelope(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException({ statusCode: 400, error: 'Bad Request', message: [`body must be an object with ${allowed.join(', ')}`] });
  }
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new BadRequestException({ statusCode: 400, error: 'Bad Request', message: unknown.map((key) => unknownFieldProblem(key, allowed)) });
  }
  return body as Record<string, unknown>;
}

/** The `id` of a message, refused as the HTTP routes refuse a path id that is not a UUID. */
export function actionId(value: unknown): string {
  if (typeof value !== 'string' || !isUUID(value)) throw new InvalidRequestError('id must be a UUID');
  return value;
}

/** The value of a message header, matched without regard to case as HTTP matches header names. */
export function messageHeader(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === wanted);
  return typeof found?.[1] === 'string' ? found[1] : undefined;
}
