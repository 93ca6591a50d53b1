import { SignedHttp } from '@punctual/client';
import { TEST_KEY } from './test-keys';

/**
 * The client's raw signed HTTP, signing with the test key. Specs read answers as untyped JSON
 * and assert on their shape, hence `any` bodies here and nowhere in the client itself.
 */
export type TestHttp = SignedHttp<any>;

export function testHttp(baseUrl: string): TestHttp {
  return new SignedHttp<any>({ baseUrl, ...TEST_KEY });
}
