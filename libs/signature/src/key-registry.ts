import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfiguredApiKey, KeyRing, PunctualConfig } from '@app/config';
import { PeriodicTask, TenantsRepository } from '@app/database';

/** How often each process reads the run-time keys again: a key revoked anywhere is refused everywhere within this and one read. */
export const KEY_REFRESH_MS = 2000;

/**
 * Every API key a request may be signed with: those of `API_KEYS`, and those made at run time
 * through the admin API, read from Postgres every KEY_REFRESH_MS and decrypted with the key ring.
 * Lookups never wait on Postgres, so an unreachable database does not slow signature checks; a
 * process keeps the keys it last read.
 */
@Injectable()
export class KeyRegistry extends PeriodicTask implements OnModuleInit {
  private runtimeKeys: ReadonlyMap<string, ConfiguredApiKey> = new Map();
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
   * The secret that signs what an action sends on behalf of `keyId` (its calls, its callback
   * events): that key's own, or, once the key is gone, the oldest configured key's (the first of
   * `API_KEYS`), so retiring a key never leaves its actions' calls unsigned.
   */
  signingSecretFor(keyId: string | null): string {
    const own = keyId === null ? undefined : this.find(keyId);
    return (own ?? this.config.auth.apiKeys.values().next().value!).secret;
  }

  /** A key this process just made is valid here at once; other processes read it at their next refresh. */
  remember(keyId: string, key: ConfiguredApiKey): void {
    this.runtimeKeys = new Map([...this.runtimeKeys, [keyId, key]]);
  }

  /** A key this process just revoked is refused here at once; other processes drop it at their next refresh. */
  forget(keyId: string): void {
    this.runtimeKeys = new Map([...this.runtimeKeys].filter(([id]) => id !== keyId));
  }

  protected async run(): Promise<void> {
    const keys = new Map<string, ConfiguredApiKey>();
    for (const stored of await this.tenants.activeKeys()) {
      try {
        keys.set(stored.keyId, { secret: this.ring.decrypt(stored.secretCiphertext), tenant: stored.tenantId });
      } catch (error) {
        this.logger.warn(`API key ${stored.keyId} cannot be used: ${(error as Error).message}`);
      }
    }
    this.runtimeKeys = keys;
  }
}
