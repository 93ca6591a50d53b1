import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { MessagingGrant } from '@app/domain';
import { reencryptStaleSecrets } from './reencrypt-secrets';

/** A tenant's own limits; null keeps the deployment's default (TENANT_* settings). */
export interface TenantLimits {
  maxActiveActions: number | null;
  createRate: number | null;
  maxConcurrency: number | null;
}

export interface TenantRecord {
  id: string;
  limits: TenantLimits;
  /** What an operator allowed its MESSAGE actions to reach; null when none did (`messagingReach` says what that means). */
  messaging: MessagingGrant | null;
  /** Its actions that are PENDING or IN_PROGRESS, from the counts behind stats (no row is counted). */
  activeActions: number;
  /** Its keys made at run time and not revoked. */
  keys: { keyId: string; createdAt: Date }[];
  createdAt: Date;
}

/** A run-time key as the key registry reads it: the secret still encrypted. */
export interface StoredApiKey {
  keyId: string;
  tenantId: string;
  secretCiphertext: string;
}

const STORED_KEY = `key_id AS "keyId", tenant_id AS "tenantId", secret_ciphertext AS "secretCiphertext"`;

const LIMITS = `json_build_object('maxActiveActions', t.max_active_actions, 'createRate', t.create_rate, 'maxConcurrency', t.max_concurrency) AS limits`;

/** A tenant's change: a field left out keeps its value. */
export interface TenantChanges {
  /** A limit left out keeps its value; null sets the default back. */
  limits?: Partial<TenantLimits>;
  /** Null forgets the grant. */
  messaging?: MessagingGrant | null;
}

const TENANT = `t.id, t.created_at AS "createdAt", ${LIMITS}, t.messaging,
  (SELECT coalesce(sum(c.delta), 0)::int FROM action_counts c WHERE c.tenant_id = t.id AND c.status IN ('PENDING', 'IN_PROGRESS')) AS "activeActions",
  coalesce((SELECT json_agg(json_build_object('keyId', k.key_id, 'createdAt', k.created_at) ORDER BY k.created_at, k.key_id)
    FROM api_keys k WHERE k.tenant_id = t.id AND k.revoked_at IS NULL), '[]') AS keys`;

/** Tenants, their limits, and the API keys made for them at run time. */
@Injectable()
export class TenantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Creates the tenant; null when one of that id exists. */
  async create(id: string, limits: TenantLimits, messaging: MessagingGrant | null): Promise<TenantRecord | null> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO tenants (id, max_active_actions, create_rate, max_concurrency, messaging) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id, limits.maxActiveActions, limits.createRate, limits.maxConcurrency, messaging && JSON.stringify(messaging)],
    );
    return inserted.length === 1 ? this.find(id) : null;
  }

  /** Makes sure the tenants of the keys configured in the environment exist. */
  async ensure(ids: readonly string[]): Promise<void> {
    await this.dataSource.query(`INSERT INTO tenants (id) SELECT unnest($1::varchar[]) ON CONFLICT (id) DO NOTHING`, [[...new Set(ids)]]);
  }

  async find(id: string): Promise<TenantRecord | null> {
    const [tenant]: TenantRecord[] = await this.dataSource.query(`SELECT ${TENANT} FROM tenants t WHERE t.id = $1`, [id]);
    return tenant ? withDates(tenant) : null;
  }

  /** The tenant's own limits alone (no counts): null when no such tenant. */
  async limitsOf(id: string): Promise<TenantLimits | null> {
    const [row]: { limits: TenantLimits }[] = await this.dataSource.query(`SELECT ${LIMITS} FROM tenants t WHERE t.id = $1`, [id]);
    return row?.limits ?? null;
  }

  /** What an operator allowed the tenant's MESSAGE actions to reach: null when none did, or there is no such tenant. */
  async messagingOf(id: string): Promise<MessagingGrant | null> {
    const [row]: { messaging: MessagingGrant | null }[] = await this.dataSource.query(`SELECT messaging FROM tenants WHERE id = $1`, [id]);
    return row?.messaging ?? null;
  }

  async list(): Promise<TenantRecord[]> {
    const tenants: TenantRecord[] = await this.dataSource.query(`SELECT ${TENANT} FROM tenants t ORDER BY t.id`);
    return tenants.map(withDates);
  }

  /** Applies the changes in one statement; false when there is no such tenant. */
  async update(id: string, changes: TenantChanges): Promise<boolean> {
    const limits = changes.limits ?? {};
    const [, updated]: [unknown, number] = await this.dataSource.query(
      `UPDATE tenants SET
         max_active_actions = CASE WHEN $2 THEN $3 ELSE max_active_actions END,
         create_rate = CASE WHEN $4 THEN $5 ELSE create_rate END,
         max_concurrency = CASE WHEN $6 THEN $7 ELSE max_concurrency END,
         messaging = CASE WHEN $8 THEN $9::jsonb ELSE messaging END
       WHERE id = $1`,
      [
        id,
        limits.maxActiveActions !== undefined,
        limits.maxActiveActions ?? null,
        limits.createRate !== undefined,
        limits.createRate ?? null,
        limits.maxConcurrency !== undefined,
        limits.maxConcurrency ?? null,
        changes.messaging !== undefined,
        changes.messaging ? JSON.stringify(changes.messaging) : null,
      ],
    );
    return updated === 1;
  }

  /** Stores a new key of the tenant; null when there is no such tenant. */
  /**
   * Adds a key to the tenant; null when there is no such tenant. With `reveal`, its secret may be
   * read back once (`takeReveal`) by that reader within `forMs`.
   */
  async addKey(
    tenantId: string,
    keyId: string,
    secretCiphertext: string,
    reveal?: { to: string; forMs: number },
  ): Promise<{ keyId: string; createdAt: Date } | null> {
    const rows: { keyId: string; createdAt: Date }[] = await this.dataSource.query(
      `INSERT INTO api_keys (key_id, tenant_id, secret_ciphertext, reveal_to, reveal_until)
       SELECT $2, id, $3, $4, now() + $5::int * interval '1 millisecond' FROM tenants WHERE id = $1
       RETURNING key_id AS "keyId", created_at AS "createdAt"`,
      [tenantId, keyId, secretCiphertext, reveal?.to ?? null, reveal?.forMs ?? null],
    );
    return rows[0] ?? null;
  }

  /**
   * The key's encrypted secret, once, for the reader it was added to reveal to, while its chance
   * lasts and the key is not revoked; null otherwise. The one statement that answers it clears the
   * chance, so two readers at once cannot both have it.
   */
  async takeReveal(keyId: string, to: string): Promise<(StoredApiKey & { createdAt: Date }) | null> {
    const [rows]: [(StoredApiKey & { createdAt: Date })[], number] = await this.dataSource.query(
      `UPDATE api_keys SET reveal_to = NULL, reveal_until = NULL
       WHERE key_id = $1 AND reveal_to = $2 AND reveal_until > now() AND revoked_at IS NULL
       RETURNING ${STORED_KEY}, created_at AS "createdAt"`,
      [keyId, to],
    );
    return rows[0] ?? null;
  }

  /** Revokes the tenant's key; false when it has no such key, or revoked it already. */
  async revokeKey(tenantId: string, keyId: string): Promise<boolean> {
    const [, revoked]: [unknown, number] = await this.dataSource.query(
      `UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND key_id = $2 AND revoked_at IS NULL`,
      [tenantId, keyId],
    );
    return revoked === 1;
  }

  /** Every key made at run time and not revoked, oldest first. */
  activeKeys(): Promise<StoredApiKey[]> {
    return this.dataSource.query(`SELECT ${STORED_KEY} FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, key_id`);
  }

  /** The tenant's keys made at run time and not revoked, oldest first. */
  activeKeysOf(tenantId: string): Promise<StoredApiKey[]> {
    return this.dataSource.query(`SELECT ${STORED_KEY} FROM api_keys WHERE tenant_id = $1 AND revoked_at IS NULL ORDER BY created_at, key_id`, [tenantId]);
  }

  /** Encrypts again, with the first key of the ring, every key secret `isStale` says an older key made. */
  reencryptKeys(isStale: (ciphertext: string) => boolean, reencrypt: (ciphertext: string) => string): Promise<number> {
    return reencryptStaleSecrets(this.dataSource, { name: 'api_keys', id: 'key_id' }, isStale, reencrypt);
  }
}

/** JSON built in Postgres carries times as text. */
function withDates(tenant: TenantRecord): TenantRecord {
  return { ...tenant, keys: tenant.keys.map((key) => ({ keyId: key.keyId, createdAt: new Date(key.createdAt) })) };
}
