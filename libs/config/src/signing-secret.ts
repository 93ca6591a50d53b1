import { PunctualConfig } from './punctual-config';

/**
 * The secret that signs what an action sends on behalf of `keyId` (its calls, its callback
 * events): that key's own, or, once the key is gone from `API_KEYS`, the oldest remaining key's
 * (the first listed), so retiring a key never leaves its actions' calls unsigned.
 */
export function signingSecretFor(auth: PunctualConfig['auth'], keyId: string | null): string {
  const own = keyId === null ? undefined : auth.apiKeys.get(keyId);
  return (own ?? auth.apiKeys.values().next().value!).secret;
}
