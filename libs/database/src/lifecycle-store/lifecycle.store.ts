import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Transition, UnlockedGuard } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import { NewAction } from '../repositories/action-query.types';
import { postgresGroupCommit } from '../repositories/postgres-group-commit';
import { blankEntity, hydrate, hydrateJson } from '../repositories/hydrate';
import { preparedQuery } from '../repositories/prepared-query';
import { APPLY_CHANGES_SQL, CHANGE_COLUMNS, Change } from './apply-changes.statement';
import { CLAIM_COLUMNS, CLAIM_SQL, ClaimRequest } from './claim.statement';
import { DELETE_ACTION_SQL } from './delete-action.statement';
import { INSERT_ACTIONS_SQL, NEW_ACTION_COLUMNS } from './insert-actions.statement';
import { ClaimResult, LifecycleStorePort, TransitionGuard } from '../ports/lifecycle-store.port';
import { OUTCOME_COLUMNS, RECORD_OUTCOMES_SQL, RecordedRow } from './record-outcomes.statement';
import { writePlanOf } from './write-plan';
import { createdRow } from './created-row';

/** What the insert returns of each action: the columns Postgres fills. */
interface InsertedRow {
  id: string;
  created_at: Date;
  updated_at: Date;
}

/**
 * The one writer of actions' lifecycle state: their creation, the claim of an occurrence (decided
 * by Postgres), and every transition the lifecycle computes after it (an attempt's outcome, a
 * client's change or deletion, the promoter's NO_ACTION), each under its guard, with its history
 * entry and its webhook notice in the same statement. Concurrent writes of one kind share one
 * statement (GroupCommit); rows are locked in id order, so batches running side by side on
 * several processes cannot deadlock. The statements are in this folder, one a file.
 */
@Injectable()
export class LifecycleStore implements LifecycleStorePort {
  private readonly singleCreates = postgresGroupCommit<NewAction, ActionEntity>((actions) => this.createMany(actions));
  private readonly claims = postgresGroupCommit<ClaimRequest & { leaseMs: number }, ClaimResult>((requests) => this.claimMany(requests));
  private readonly outcomes = postgresGroupCommit<Transition<ActionEntity>, ActionEntity | null>((outcomes) => this.recordMany(outcomes));
  private readonly changes = postgresGroupCommit<Change, ActionEntity | null>((changes) => this.applyMany(changes));

  /** Told the ids of the webhook events each write committed, so that their deliveries are queued at once. */
  private eventsCommitted: (eventIds: string[]) => void = () => undefined;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Hands the ids of the webhook events every later write commits to `listener`, right after the commit. */
  relayCommittedEvents(listener: (eventIds: string[]) => void): void {
    this.eventsCommitted = listener;
  }

  /** Stores one action and its creation history; concurrent single creates share one statement. */
  create(action: NewAction): Promise<ActionEntity> {
    return this.singleCreates.submit(action);
  }

  /**
   * Stores actions and their creation history in one statement, all or nothing, whatever their
   * number; inside the caller's transaction when given its manager.
   */
  async createMany(actions: NewAction[], transaction?: EntityManager): Promise<ActionEntity[]> {
    const values = NEW_ACTION_COLUMNS.values(actions);
    const rows = transaction
      ? await transaction.query<InsertedRow[]>(INSERT_ACTIONS_SQL, values)
      : await preparedQuery<InsertedRow>(this.dataSource, 'punctual_insert_actions', INSERT_ACTIONS_SQL, values);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return actions.map((sent) => {
      const row = byId.get(sent.id)!;
      return createdRow(blankEntity<ActionEntity>(metadata), sent, row.created_at, row.updated_at);
    });
  }

  /**
   * The lifecycle's `claimed` event on Postgres's clock: PENDING and due → IN_PROGRESS for exactly
   * this revision, under a new lease of `leaseMs` and a fresh fencing token. Also takes over an
   * IN_PROGRESS claim whose lease lapsed (its worker died; the caller records the interruption).
   * Only a row of `type`, the type of the queue the job came from: any other is left as it is.
   */
  claim(id: string, revision: number, type: string, leaseMs: number): Promise<ClaimResult> {
    return this.claims.submit({ id, revision, type, token: randomUUID(), leaseMs });
  }

  /**
   * Writes `transition` if `guard` still holds: the action as written (as it was, for a deletion),
   * or null when the row moved on first. A transition that changes nothing writes nothing and
   * answers the action as it was.
   */
  persist(transition: Transition<ActionEntity>, guard: TransitionGuard): Promise<ActionEntity | null> {
    const plan = writePlanOf(transition, guard);
    switch (plan.kind) {
      case 'delete':
        return this.delete(transition.before, plan.guard);
      case 'nothing':
        return Promise.resolve(transition.before);
      case 'change':
        return this.changes.submit({ transition, guard: plan.guard, changed: plan.changed, ord: 0 });
      case 'outcome':
        return this.outcomes.submit(transition);
    }
  }

  private async delete(action: ActionEntity, guard: UnlockedGuard): Promise<ActionEntity | null> {
    const [, deleted]: [unknown, number] = await this.dataSource.query(DELETE_ACTION_SQL, [
      action.id,
      action.revision,
      guard.statuses,
      guard.dueAfter ?? null,
    ]);
    return deleted === 1 ? action : null;
  }

  private async claimMany(requests: (ClaimRequest & { leaseMs: number })[]): Promise<ClaimResult[]> {
    const rows = await preparedQuery(this.dataSource, 'punctual_claim', CLAIM_SQL, [...CLAIM_COLUMNS.values(requests), requests[0].leaseMs]);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byId = new Map(rows.map((row) => [row.id as string, row]));
    return requests.map((request): ClaimResult => {
      const row = byId.get(request.id);
      if (!row || row.revision !== request.revision) return { kind: 'none' };
      if (row.on_calendar_date) return { kind: 'calendar-date', action: hydrate<ActionEntity>(metadata, row) };
      if (row.due_in_ms !== null) return { kind: 'not-due', dueInMs: Number(row.due_in_ms) };
      // A job queued twice in one batch claims once: the request whose token won takes the row.
      if (row.claim_token !== request.token) return { kind: 'none' };
      return {
        kind: 'claimed',
        action: hydrate<ActionEntity>(metadata, row),
        takenOver: row.previous_status === 'IN_PROGRESS',
        dueAt: row.due_at as Date,
      };
    });
  }

  private async recordMany(outcomes: Transition<ActionEntity>[]): Promise<(ActionEntity | null)[]> {
    const rows = await preparedQuery<RecordedRow>(this.dataSource, 'punctual_record_outcomes', RECORD_OUTCOMES_SQL, OUTCOME_COLUMNS.values(outcomes));
    this.relayEvents(rows);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return outcomes.map(({ before, after }) => {
      const row = byId.get(before.id);
      if (!row) return null;
      byId.delete(before.id);
      // The action as the outcome left it, without reading it back: the transition's state and what Postgres filled in.
      return Object.assign(blankEntity<ActionEntity>(metadata), after, {
        finishedAt: row.finished_at,
        claimToken: row.claim_token,
        claimedUntil: row.claimed_until,
        updatedAt: row.updated_at,
      });
    });
  }

  private async applyMany(changes: Change[]): Promise<(ActionEntity | null)[]> {
    changes.forEach((change, ord) => (change.ord = ord));
    const rows = await preparedQuery<{ ord: number; row_json: Record<string, unknown>; event_ids: string[] | null }>(
      this.dataSource,
      'punctual_apply_changes',
      APPLY_CHANGES_SQL,
      CHANGE_COLUMNS.values(changes),
    );
    this.relayEvents(rows);
    const metadata = this.dataSource.getMetadata(ActionEntity);
    const byOrd = new Map(rows.map((row) => [row.ord, row]));
    return changes.map((_, ord) => {
      const row = byOrd.get(ord);
      return row ? hydrateJson<ActionEntity>(metadata, row.row_json) : null;
    });
  }

  private relayEvents(rows: readonly { event_ids: string[] | null }[]): void {
    const eventIds = rows.find((row) => row.event_ids)?.event_ids;
    if (eventIds) this.eventsCommitted(eventIds);
  }
}
