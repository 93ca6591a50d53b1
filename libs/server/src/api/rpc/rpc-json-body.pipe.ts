import { PipeTransform } from '@nestjs/common';
import { SignedMessage } from '@app/signature';
import { bodyTooLarge, parseJsonBody } from '../input/json-body';
import { BATCH_BODY_LIMIT_BYTES, BODY_LIMIT_BYTES, CALENDAR_BODY_LIMIT_BYTES } from '../input/limits';

/**
 * Parses the body text of a message the `SignatureGuard` verified, under the rules HTTP bodies
 * follow: the size limit (413), then `parseJsonBody` (400), in that order and with the same
 * messages, before any DTO sees it.
 */
export class RpcJsonBodyPipe implements PipeTransform<SignedMessage, unknown> {
  constructor(private readonly limitBytes: number) {}

  transform(message: SignedMessage): unknown {
    if (Buffer.byteLength(message.body, 'utf8') > this.limitBytes) throw bodyTooLarge(this.limitBytes);
    return parseJsonBody(message.body);
  }
}

/** The body of any message but a batch or a calendar: at most 64 KiB. */
export const RPC_BODY = new RpcJsonBodyPipe(BODY_LIMIT_BYTES);
/** The body of a calendar: at most 256 KiB. */
export const RPC_CALENDAR_BODY = new RpcJsonBodyPipe(CALENDAR_BODY_LIMIT_BYTES);
/** The body of a batch: at most 1 MiB. */
export const RPC_BATCH_BODY = new RpcJsonBodyPipe(BATCH_BODY_LIMIT_BYTES);
