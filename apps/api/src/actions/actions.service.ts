import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PunctualConfig } from '@app/config';
import {
  ActionChanges,
  ActionEntity,
  ActionHistoryEntity,
  ActionStats,
  ActionsRepository,
  HistoryRepository,
  MisfirePolicy,
  NewAction,
} from '@app/database';
import { ActionTypeRegistry, InvalidActionDataError, UnknownActionTypeError } from '@app/fulfillment';
import { ActionQueues, Clock } from '@app/scheduling';
import { ActionNotFoundError, InvalidRequestError } from './action.errors';
import { CreateActionDto } from './dto/create-action.dto';
import { ListActionsQuery } from './dto/list-actions.query';
import { UpdateActionDto } from './dto/update-action.dto';
import { LockExplainer } from './lock-explainer';
import { decodeCursor, encodeCursor } from './list-cursor';

export interface ActionPage {
  items: ActionEntity[];
  nextCursor: string | null;
}

/** The client's view of actions: validate, store in Postgres, then queue. */
@Injectable()
export class ActionsService {
  constructor(
    private readonly actions: ActionsRepository,
    private readonly history: HistoryRepository,
    private readonly types: ActionTypeRegistry,
    private readonly queues: ActionQueues,
    private readonly locks: LockExplainer,
    private readonly clock: Clock,
    private readonly config: PunctualConfig,
  ) {}

  /** Creates one action; with an idempotency key, a repeat returns the first action and `created: false`. */
  async create(dto: CreateActionDto, keyId: string, idempotencyKey?: string): Promise<{ action: ActionEntity; created: boolean }> {
    const input = await this.toNewAction(dto, 'data');
    const result = idempotencyKey
      ? await this.actions.createIdempotent(keyId, idempotencyKey, input)
      : { created: true, action: await this.actions.create(input) };
    if (result.created) await this.queues.enqueue([result.action]);
    return result;
  }

  /** Validates every item first and names each bad one by index; then stores all in one statement. */
  async createBatch(items: CreateActionDto[]): Promise<ActionEntity[]> {
    const problems: string[] = [];
    const inputs: NewAction[] = [];
    for (const [index, item] of items.entries()) {
      try {
        inputs.push(await this.toNewAction(item, `items.${index}.data`));
      } catch (error) {
        if (error instanceof InvalidActionDataError) problems.push(...error.problems);
        else if (error instanceof UnknownActionTypeError) problems.push(`items.${index}.action: ${error.message}`);
        else throw error;
      }
    }
    if (problems.length > 0) throw new InvalidActionDataError(problems);
    const created = await this.actions.createMany(inputs);
    await this.queues.enqueue(created);
    return created;
  }

  async get(id: string): Promise<ActionEntity> {
    const action = await this.actions.findById(id);
    if (!action) throw new ActionNotFoundError(id);
    return action;
  }

  async list(query: ListActionsQuery): Promise<ActionPage> {
    const limit = query.limit ?? 50;
    const rows = await this.actions.list({
      status: query.status,
      action: query.action,
      limit: limit + 1,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
    });
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit ? encodeCursor(last) : null };
  }

  stats(): Promise<ActionStats> {
    return this.actions.stats();
  }

  async historyOf(id: string): Promise<ActionHistoryEntity[]> {
    await this.get(id);
    return this.history.forAction(id);
  }

  async update(id: string, dto: UpdateActionDto): Promise<ActionEntity> {
    const current = await this.get(id);
    if (dto.data) await this.types.validateData(current.action, dto.data);
    const changes: ActionChanges = { ...dto, ...this.recurrenceAfter(current, dto) };
    const changed = Object.keys(dto).join(', ') || 'nothing';
    const updated = await this.actions.updateUnlocked(id, changes, this.lockedBefore(), `updated ${changed}`);
    if (!updated) throw await this.locks.explain(id, 'changed');
    if (updated.revision !== current.revision) {
      await this.queues.remove(current);
      await this.queues.enqueue([updated]);
    }
    return updated;
  }

  async remove(id: string): Promise<void> {
    const current = await this.get(id);
    if (!(await this.actions.deleteUnlocked(id, this.lockedBefore()))) throw await this.locks.explain(id, 'deleted');
    await this.queues.remove(current);
  }

  async retry(id: string): Promise<ActionEntity> {
    const requeued = await this.actions.requeueFinished(id, this.clock.now());
    if (!requeued) throw await this.locks.explainRetry(id);
    await this.queues.enqueue([requeued]);
    return requeued;
  }

  /** Actions due before this instant are locked against change. */
  private lockedBefore(): Date {
    return new Date(this.clock.now().getTime() + this.config.scheduling.lockWindowMs);
  }

  private async toNewAction(dto: CreateActionDto, dataPath: string): Promise<NewAction> {
    await this.types.validateData(dto.action, dto.data, dataPath);
    const repeat = dto.repeat ?? false;
    return {
      id: randomUUID(),
      action: dto.action,
      executionTime: dto.executionTime,
      data: dto.data,
      metadata: dto.metadata ?? {},
      repeat,
      frequency: repeat ? dto.frequency! : null,
      executionRemainder: repeat ? dto.executionRemainder! : null,
      misfirePolicy: dto.misfirePolicy ?? MisfirePolicy.RunOnce,
    };
  }

  /** A repeating result needs a frequency and a remainder, given now or kept from before. */
  private recurrenceAfter(current: ActionEntity, dto: UpdateActionDto): Partial<ActionChanges> {
    const repeat = dto.repeat ?? current.repeat;
    if (!repeat) return dto.repeat === false ? { frequency: null, executionRemainder: null } : {};
    const frequency = dto.frequency ?? current.frequency;
    const executionRemainder = dto.executionRemainder ?? current.executionRemainder;
    if (!frequency || !executionRemainder) {
      throw new InvalidRequestError('A repeating action needs frequency and executionRemainder ≥ 1: give them with repeat: true');
    }
    return { frequency, executionRemainder };
  }
}
