import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { KeyWithSecret, KeyRegistry } from './key-registry';

/** Whose key signs what an action sends: its tenant, and the key that last set what is sent (null when not recorded). */
export interface Signer {
  readonly tenantId: string;
  readonly signingKeyId: string | null;
}

/** The tenant has no API key left: nothing it sends can be signed, so the attempt fails (and is retried) until an operator makes one. */
export class NoSigningKeyError extends Error {
  constructor(tenant: string) {
    super(`tenant "${tenant}" has no API key left to sign with; an operator can make one with POST /admin/api/tenants/${tenant}/keys`);
    this.name = 'NoSigningKeyError';
  }
}

/** Key ids found gone, remembered so that an action of a revoked key does not read Postgres on every attempt; ids are never reused. */
const GONE_KEYS_KEPT = 10_000;

/**
 * Chooses the key that signs an action's calls, `MESSAGE`s and callback events: always one of the
 * action's own tenant. The key that last set what is sent, else, once it is gone, the tenant's
 * oldest remaining key (its `API_KEYS` keys in the order listed, then its run-time keys by
 * creation). A key this process has not read yet (made since the last refresh) is read from
 * Postgres before anything is signed, so a new key signs at once and no other key in its place.
 * A known key costs no read; a key revoked on another process keeps signing here until the next
 * refresh (KEY_REFRESH_MS).
 */
@Injectable()
export class SigningKeys {
  private readonly gone = new LRUCache<string, true>({ max: GONE_KEYS_KEPT });

  constructor(private readonly keys: KeyRegistry) {}

  /** The key to sign with; throws `NoSigningKeyError` when the tenant has none. */
  async keyFor({ tenantId, signingKeyId }: Signer): Promise<KeyWithSecret> {
    if (signingKeyId !== null) {
      const own = this.keys.find(signingKeyId);
      if (own?.tenant === tenantId) return { keyId: signingKeyId, secret: own.secret };
      if (!own && !this.gone.has(signingKeyId)) {
        const stored = await this.keys.readKeysOf(tenantId);
        const found = stored.find((key) => key.keyId === signingKeyId);
        if (found) return found;
        this.gone.set(signingKeyId, true);
        return this.keys.oldestOf(tenantId) ?? this.oldestStored(tenantId, stored);
      }
    }
    return this.keys.oldestOf(tenantId) ?? this.oldestStored(tenantId, await this.keys.readKeysOf(tenantId));
  }

  private oldestStored(tenantId: string, stored: readonly KeyWithSecret[]): KeyWithSecret {
    if (stored.length === 0) throw new NoSigningKeyError(tenantId);
    return stored[0];
  }
}
