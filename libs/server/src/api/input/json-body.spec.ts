import { HttpException } from '@nestjs/common';
import { bodyTooLarge, parseJsonBody } from './json-body';

/** The status and body of the error `parse` throws. */
function refusal(parse: () => unknown): { status: number; body: unknown } {
  try {
    parse();
  } catch (error) {
    if (error instanceof HttpException) return { status: error.getStatus(), body: error.getResponse() };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseJsonBody: the body rules of HTTP and RPC alike', () => {
  it('parses an object or an array, blanks around it allowed', () => {
    expect(parseJsonBody(' \r\n\t{"a":[1,{"constructor":2}]} ')).toEqual({ a: [1, { constructor: 2 }] });
    expect(parseJsonBody('[]')).toEqual([]);
  });

  it.each(['', '   ', '"text"', '42', 'null', 'true'])('refuses %p: only an object or an array is a body', (text) => {
    expect(refusal(() => parseJsonBody(text))).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: 'Malformed JSON body: the body must be a JSON object or array' },
    });
  });

  it('refuses malformed JSON with the parser’s reason', () => {
    expect(refusal(() => parseJsonBody('{"action":'))).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/^Malformed JSON body: .+/) },
    });
  });

  it('refuses what jsonShapeProblems finds, naming each place', () => {
    expect(refusal(() => parseJsonBody('{"a":{"__proto__":{}},"n":1e400}'))).toEqual({
      status: 400,
      body: { statusCode: 400, error: 'Bad Request', message: ['a.__proto__: a key named __proto__ is not accepted', 'n must be a finite number'] },
    });
  });

  it('says the limit in the 413', () => {
    expect(bodyTooLarge(65_536).getResponse()).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body exceeds the limit of 65536 bytes (64 KiB per action, 256 KiB per calendar, 1 MiB per batch)',
    });
  });
});
