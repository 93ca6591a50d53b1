import { BadRequestException, PayloadTooLargeException, PipeTransform } from '@nestjs/common';
import { SignedMessage } from '@app/signature';
import { jsonShapeProblems } from '../input/json-shape';
import { BATCH_BODY_LIMIT_BYTES, BODY_LIMIT_BYTES, bodyTooLargeMessage } from '../input/limits';

/**
 * Parses the body text of a message the `SignatureGuard` verified, under the rules HTTP bodies
 * follow: the size limit (413), well-formed JSON and `jsonShapeProblems` (400), in that order and
 * with the same messages, before any DTO sees it.
 */
export class RpcJsonBodyPipe implements PipeTransform<SignedMessage, unknown> {
  constructor(private readonly limitBytes: number) {}

  transform(message: SignedMessage): unknown {
    if (Buffer.byteLength(message.body, 'utf8') > this.limitBytes) {
      throw new PayloadTooLargeException({ statusCode: 413, error: 'Payload Too Large', message: bodyTooLargeMessage(this.limitBytes) });
    }
    let body: unknown;
    try {
      body = JSON.parse(message.body);
    } catch (error) {
      throw new BadRequestException({ statusCode: 400, error: 'Bad Request', message: `Malformed JSON body: ${(error as Error).message}` });
    }
    const problems = jsonShapeProblems(body);
    if (problems.length > 0) throw new BadRequestException({ statusCode: 400, error: 'Bad Request', message: problems });
    return body;
  }
}

/** The body of any message but a batch: at most 64 KiB. */
export const RPC_BODY = new RpcJsonBodyPipe(BODY_LIMIT_BYTES);
/** The body of a batch: at most 1 MiB. */
export const RPC_BATCH_BODY = new RpcJsonBodyPipe(BATCH_BODY_LIMIT_BYTES);
