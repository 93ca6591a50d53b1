import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { Response } from 'express';
import { createHash } from 'node:crypto';
import { ConsoleLocals } from './console-session.middleware';

/** A digest of the visitor's console session id: names the session in storage without keeping the id itself. */
export const ConsoleSessionDigest = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const { consoleSession } = context.switchToHttp().getResponse<Response>().locals as ConsoleLocals;
  return createHash('sha256').update(consoleSession).digest('base64url');
});
