import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { jsonShapeProblems } from './json-shape';
import { bodyTooLargeMessage } from './limits';

/** The blanks JSON allows before a value (RFC 8259). */
const LEADING_BLANKS = /^[ \t\n\r]*/;

/** The 413 of a body over `limitBytes`, the same whichever transport carried it. */
export function bodyTooLarge(limitBytes: number): PayloadTooLargeException {
  return new PayloadTooLargeException({ statusCode: 413, error: 'Payload Too Large', message: bodyTooLargeMessage(limitBytes) });
}

/**
 * The body text of an authenticated request as the JSON the DTOs may see, whatever the transport:
 * an object or an array, well-formed, and with nothing `jsonShapeProblems` refuses; else a 400
 * saying why. It runs only once the signature over the text verified, so parsing costs a caller
 * nothing they cannot sign for.
 */
export function parseJsonBody(text: string): unknown {
  const first = text.charAt(LEADING_BLANKS.exec(text)![0].length);
  if (first !== '{' && first !== '[') throw malformed('the body must be a JSON object or array');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw malformed((error as Error).message);
  }
  const problems = jsonShapeProblems(body);
  if (problems.length > 0) throw new BadRequestException({ statusCode: 400, error: 'Bad Request', message: problems });
  return body;
}

function malformed(reason: string): BadRequestException {
  return new BadRequestException({ statusCode: 400, error: 'Bad Request', message: `Malformed JSON body: ${reason}` });
}
