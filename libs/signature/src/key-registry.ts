import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfiguredApiKey, KeyRing, PunctualConfig } from '@app/config';
import { StoredApiKey, TenantsRepository } from '@app/database';
import { PeriodicTask } from '@app/runtime';

/** How often each process reads the run-time keys again: a key revoked anywhere is refused everywhere within this and one read. */
export const KEY_REFRESH_MS = 2000;

/** A key id with its secret: what signs, and which key it was. */
export interface KeyWithSecret {
  keyId: string;
  secret: string;
}

/**
 * Every API key a request may be signed with: those of `API_KEYS`, and those made at run time
 * through the admin API, read from Postgres every KEY_REFRESH_MS and decrypted with the key ring.
 * Lookups never wait on Postgres, so an unreachable database does not slow signature checks; a
 * process keeps the keys it last read.
 */
@Injectable()
export class KeyRegistry extends PeriodicTask implements OnModuleInit {
  /** Oldest first, as Postgres answers them; a key made or read since the last refresh comes last. */
  private runtimeKeys: ReadonlyMap<string, ConfiguredApiKey> = new Map();
  /** Whether keys of two or more tenants are valid, worked out whenever the keys change. */
  private shared = false;
  private readonly reads = new Map<string, Promise<KeyWithSecret[]>>();
  private readonly ring: KeyRing;

  constructor(
    private readonly config: PunctualConfig,
    private readonly tenants: TenantsRepository,
  ) {
    super({ name: 'API key refresh', intervalMs: KEY_REFRESH_MS, firstDelayMs: KEY_REFRESH_MS });
    this.ring = new KeyRing(config.secretKeys);
  }

  /** Reads the keys once before the process serves anything (Nest awaits this), then every KEY_REFRESH_MS. */
  async onModuleInit(): Promise<void> {
    await this.run().catch((error: Error) => this.logger.warn(`API keys made at run time could not be read yet: ${error.message}`));
  }

  /** The key, with its secret and tenant; undefined when no key of that id is valid. */
  find(keyId: string): ConfiguredApiKey | undefined {
    return this.config.auth.apiKeys.get(keyId) ?? this.runtimeKeys.get(keyId);
  }

  /**
   * The tenant's oldest key this process holds: the first of its `API_KEYS` keys in the order
   * listed, else its oldest key made at run time; undefined when it holds none.
   */
  oldestOf(tenant: string): KeyWithSecret | undefined {
    for (const keys of [this.config.auth.apiKeys, this.runtimeKeys]) {
      for (const [keyId, key] of keys) if (key.tenant === tenant) return { keyId, secret: key.secret };
    }
    return undefined;
  }

  /**
   * The tenant's keys made at run time and not revoked, oldest first, read from Postgres now: for a
   * key this process has not read yet (made since its last refresh). Each one read is valid here
   * at once. Concurrent reads of one tenant share one query.
   */
  readKeysOf(tenant: string): Promise<KeyWithSecret[]> {
    let read = this.reads.get(tenant);
    if (!read) {
      read = this.readStoredKeysOf(tenant).finally(() => this.reads.delete(tenant));
      this.reads.set(tenant, read);
    }
    return read;
  }

  /** Whether keys of two or more tenants are valid now (`API_KEYS` and those made at run time). */
  sharedByTenants(): boolean {
    return this.shared;
  }

  /** A key this process just made, or read, is valid here at once; other processes read it at their next refresh. */
  remember(keyId: string, key: ConfiguredApiKey): void {
    this.useRuntimeKeys(new Map([...this.runtimeKeys, [keyId, key]]));
  }

  /** A key this process just revoked is refused here at once; other processes drop it at their next refresh. */
  forget(keyId: string): void {
    this.useRuntimeKeys(new Map([...this.runtimeKeys].filter(([id]) => id !== keyId)));
  }

  private useRuntimeKeys(keys: ReadonlyMap<string, ConfiguredApiKey>): void {
    this.runtimeKeys = keys;
    const tenants = new Set<string>();
    for (const map of [this.config.auth.apiKeys, keys]) for (const key of map.values()) tenants.add(key.tenant);
    this.shared = tenants.size > 1;
  }

  private async readStoredKeysOf(tenant: string): Promise<KeyWithSecret[]> {
    const keys = this.decrypted(await this.tenants.activeKeysOf(tenant));
    for (const [keyId, key] of keys) if (!this.runtimeKeys.has(keyId)) this.remember(keyId, key);
    return [...keys].map(([keyId, key]) => ({ keyId, secret: key.secret }));
  }

  protected async run(): Promise<void> {
    this.useRuntimeKeys(this.decrypted(await this.tenants.activeKeys()));
  }

  /** The stored keys with their secrets, in the order given; one that cannot be decrypted is left out (and logged). */
  private decrypted(stored: readonly StoredApiKey[]): Map<string, ConfiguredApiKey> {
    const keys = new Map<string, ConfiguredApiKey>();
    for (const { keyId, tenantId, secretCiphertext } of stored) {
      try {
        keys.set(keyId, { secret: this.ring.decrypt(secretCiphertext), tenant: tenantId });
      } catch (error) {
        this.logger.warn(`API key ${keyId} cannot be used: ${(error as Error).message}`);
      }
    }
    return keys;
  }
}
