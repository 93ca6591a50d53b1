import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionEntity } from '../entities/action.entity';
import { LifecycleStore } from '../lifecycle-store/lifecycle.store';
import { ActionListFilter, NewAction } from './action-query.types';
import { IdempotencyKeyReusedError } from './idempotency-key-reused.error';
import { TenantScope, ownedBy, tenantScope } from './tenant-scope';

/** How long an `Idempotency-Key` keeps answering with the action it created. */
const IDEMPOTENCY_TTL = '24 hours';

/** Outcome of a create that carried an `Idempotency-Key`. */
export type IdempotentCreate = { created: true; action: ActionEntity } | { created: false; action: ActionEntity };

/** Client-facing reads of actions, and creates under an idempotency key; the lifecycle store writes their state. */
@Injectable()
export class ActionsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly store: LifecycleStore,
  ) {}

  /**
   * Stores one action unless `(apiKeyId, key)` already created one within 24 h; then returns that one,
   * or refuses when that first create had another body (`requestHash` differs).
   * The key's primary key serialises concurrent duplicates: the losers wait for the winner's commit,
   * roll their own insert back and read the winner's action and hash.
   */
  async createIdempotent(apiKeyId: string, key: string, action: NewAction, requestHash: string): Promise<IdempotentCreate> {
    const created = await this.dataSource
      .transaction(async (manager) => {
        const [entity] = await this.store.createMany([action], manager);
        const claimed: unknown[] = await manager.query(
          `INSERT INTO idempotency_keys (api_key_id, key, action_id, request_hash, created_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (api_key_id, key) DO UPDATE SET action_id = EXCLUDED.action_id, request_hash = EXCLUDED.request_hash, created_at = now()
           WHERE idempotency_keys.created_at < now() - interval '${IDEMPOTENCY_TTL}'
         RETURNING action_id`,
          [apiKeyId, key, entity.id, requestHash],
        );
        if (claimed.length === 0) throw new DuplicateIdempotencyKey();
        return entity;
      })
      .catch((error: unknown) => {
        if (error instanceof DuplicateIdempotencyKey) return null;
        throw error;
      });
    if (created) return { created: true, action: created };
    const existing = await this.replayOf(apiKeyId, key, requestHash, action.tenantId);
    if (!existing) throw new Error(`Idempotency key ${key} refers to no action`);
    return { created: false, action: existing };
  }

  /**
   * The action `(apiKeyId, key)` created within 24 h, for a repeat of that create; null when the
   * key is new (or forgotten). A repeat with another body is refused (`IdempotencyKeyReusedError`).
   */
  async replayOf(apiKeyId: string, key: string, requestHash: string, tenantId: string): Promise<ActionEntity | null> {
    const rows: { action_id: string; request_hash: string | null }[] = await this.dataSource.query(
      `SELECT action_id, request_hash FROM idempotency_keys
       WHERE api_key_id = $1 AND key = $2 AND created_at >= now() - interval '${IDEMPOTENCY_TTL}'`,
      [apiKeyId, key],
    );
    if (!rows[0]) return null;
    // A key stored before hashes were kept has none: it answers as before until it expires.
    if (rows[0].request_hash !== null && rows[0].request_hash !== requestHash) throw new IdempotencyKeyReusedError(key);
    // The key is one tenant's, and so is every action it created.
    return this.findById(rows[0].action_id, tenantScope(tenantId));
  }

  /** The action, if `scope` may see it: another tenant's is as missing as one that never was. */
  findById(id: string, scope: TenantScope): Promise<ActionEntity | null> {
    const tenant = ownedBy(scope);
    return this.dataSource.getRepository(ActionEntity).findOneBy(tenant === null ? { id } : { id, tenantId: tenant });
  }

  /** One page of `scope`'s actions ordered by (executionTime, id), either way, strictly after the given keyset position. */
  list(filter: ActionListFilter, scope: TenantScope): Promise<ActionEntity[]> {
    const direction = filter.descending ? 'DESC' : 'ASC';
    const query = this.dataSource
      .getRepository(ActionEntity)
      .createQueryBuilder('a')
      .orderBy('a.execution_time', direction)
      .addOrderBy('a.id', direction)
      .limit(filter.limit);
    const tenant = ownedBy(scope);
    if (tenant !== null) query.andWhere('a.tenant_id = :tenant', { tenant });
    if (filter.status) query.andWhere('a.status = :status', { status: filter.status });
    if (filter.action) query.andWhere('a.action = :action', { action: filter.action });
    if (filter.paused !== undefined) query.andWhere(filter.paused ? 'a.paused_from IS NOT NULL' : 'a.paused_from IS NULL');
    if (filter.dueFrom) query.andWhere('a.execution_time >= :dueFrom', { dueFrom: filter.dueFrom });
    if (filter.dueBefore) query.andWhere('a.execution_time < :dueBefore', { dueBefore: filter.dueBefore });
    if (filter.after) {
      query.andWhere(`(a.execution_time, a.id) ${filter.descending ? '<' : '>'} (:afterTime, :afterId)`, {
        afterTime: filter.after.executionTime,
        afterId: filter.after.id,
      });
    }
    return query.getMany();
  }
}

class DuplicateIdempotencyKey extends Error {}
