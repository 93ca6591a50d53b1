import { BadRequestException, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { MessagePermissions } from '@app/action-types';
import { KeyRing, PunctualConfig } from '@app/config';
import { TenantChanges, TenantLimits, TenantRecord, TenantsRepository } from '@app/database';
import { MessagingGrant, MessagingReach, messagingGrantProblems, messagingReach } from '@app/domain';
import { KeyRegistry } from '@app/signature';
import { ApiKeyConfiguredError, ApiKeyNotFoundError, SecretKeyNotConfiguredError, TenantExistsError, TenantNotFoundError } from '../errors/tenant.errors';
import { TenantLimitsDto } from './dto/tenant-limits.dto';

/**
 * A tenant as operators see it: its limits, what its MESSAGE actions may reach (null: every
 * transport and pattern), every key id it signs with (never a secret), and its active actions.
 */
export interface TenantView extends Omit<TenantRecord, 'keys' | 'messaging'> {
  messaging: MessagingReach;
  keys: { keyId: string; source: 'environment' | 'admin'; createdAt: Date | null }[];
}

/** A key made at run time, its secret shown this once. */
export interface CreatedKey {
  keyId: string;
  secret: string;
  createdAt: Date;
}

const NO_LIMITS: TenantLimits = { maxActiveActions: null, createRate: null, maxConcurrency: null };

/**
 * Tenants and their keys, for the admin API and the console. Keys made here are stored encrypted
 * under SECRET_KEY and reach every API process within KEY_REFRESH_MS; revoking one stops it there
 * as fast. The tenants of `API_KEYS` exist from the API's start.
 */
@Injectable()
export class TenantsAdminService implements OnApplicationBootstrap {
  private readonly logger = new Logger(TenantsAdminService.name);
  private readonly ring: KeyRing;

  constructor(
    private readonly tenants: TenantsRepository,
    private readonly keys: KeyRegistry,
    private readonly config: PunctualConfig,
    private readonly messaging: MessagePermissions,
  ) {
    this.ring = new KeyRing(config.secretKeys);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.tenants.ensure([...this.config.auth.apiKeys.values()].map((key) => key.tenant));
    if (!this.ring.enabled) return;
    const count = await this.tenants.reencryptKeys(
      (ciphertext) => this.ring.isStale(ciphertext),
      (ciphertext) => this.ring.encrypt(this.ring.decrypt(ciphertext)),
    );
    if (count > 0) this.logger.log(`Encrypted ${count} API key secret(s) again with the first SECRET_KEY`);
  }

  async create(id: string, limits: TenantLimitsDto = {}, messaging?: MessagingGrant): Promise<TenantView> {
    this.assertMessaging(messaging);
    const created = await this.tenants.create(id, { ...NO_LIMITS, ...limits }, messaging ?? null);
    if (!created) throw new TenantExistsError(id);
    return this.view(created);
  }

  async list(): Promise<TenantView[]> {
    return (await this.tenants.list()).map((tenant) => this.view(tenant));
  }

  async get(id: string): Promise<TenantView> {
    const tenant = await this.tenants.find(id);
    if (!tenant) throw new TenantNotFoundError(id);
    return this.view(tenant);
  }

  /** Applies the changes given; a new messaging grant applies here at once, and on every other process within MESSAGING_READ_MS. */
  async update(id: string, changes: TenantChanges): Promise<TenantView> {
    this.assertMessaging(changes.messaging);
    if (!(await this.tenants.update(id, changes))) throw new TenantNotFoundError(id);
    this.messaging.forget(id);
    return this.get(id);
  }

  /** Refuses (400, naming each) a transport MESSAGE_TRANSPORTS does not name, or a pattern with a wildcard. */
  private assertMessaging(grant: MessagingGrant | null | undefined): void {
    const problems = grant ? messagingGrantProblems(grant, [...this.config.message.transports.keys()]) : [];
    if (problems.length > 0) throw new BadRequestException({ statusCode: 400, error: 'Bad Request', message: problems });
  }

  /**
   * A new key of the tenant: a random id and secret, the secret stored encrypted and answered only
   * now, or, with `reveal`, also once more to that reader (`revealKey`).
   */
  async createKey(tenant: string, reveal?: { to: string; forMs: number }): Promise<CreatedKey> {
    if (!this.ring.enabled) throw new SecretKeyNotConfiguredError();
    const keyId = `key_${randomBytes(10).toString('hex')}`;
    const secret = randomBytes(32).toString('base64url');
    const stored = await this.tenants.addKey(tenant, keyId, this.ring.encrypt(secret), reveal);
    if (!stored) throw new TenantNotFoundError(tenant);
    this.keys.remember(keyId, { secret, tenant });
    return { keyId, secret, createdAt: stored.createdAt };
  }

  /** The key `createKey` was asked to reveal to `to`, with its secret, the first time `to` asks while the key lives; null after that. */
  async revealKey(keyId: string, to: string): Promise<{ tenant: string; key: CreatedKey } | null> {
    const stored = await this.tenants.takeReveal(keyId, to);
    if (!stored) return null;
    return { tenant: stored.tenantId, key: { keyId, secret: this.ring.decrypt(stored.secretCiphertext), createdAt: stored.createdAt } };
  }

  /** Revokes a key made at run time; a key of API_KEYS is retired in the environment. */
  async revokeKey(tenant: string, keyId: string): Promise<void> {
    if (this.config.auth.apiKeys.get(keyId)?.tenant === tenant) throw new ApiKeyConfiguredError(keyId);
    if (await this.tenants.revokeKey(tenant, keyId)) return this.keys.forget(keyId);
    await this.get(tenant);
    throw new ApiKeyNotFoundError(tenant, keyId);
  }

  private view(tenant: TenantRecord): TenantView {
    const configured = [...this.config.auth.apiKeys].filter(([, key]) => key.tenant === tenant.id);
    return {
      ...tenant,
      messaging: messagingReach(tenant.id, tenant.messaging),
      keys: [
        ...configured.map(([keyId]) => ({ keyId, source: 'environment' as const, createdAt: null })),
        ...tenant.keys.map((key) => ({ ...key, source: 'admin' as const })),
      ],
    };
  }
}
