import { Controller, UseFilters, UseGuards } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RPC_PATTERNS } from '@punctual/contract';
import { ActionTypeRegistry } from '@app/action-types';
import { TenantScope, tenantScope } from '@app/database';
import { Caller, SignatureGuard, SignedMessage, VerifiedKey } from '@app/signature';
import { CallerScope } from '../input/caller-scope.decorator';
import { ActionCommands } from '../actions/action-commands.service';
import { ActionQueries } from '../actions/action-queries.service';
import { ActionBatchResponse, ActionPageResponse, ActionResponse, ActionStatsResponse, HistoryEntryResponse } from '../actions/dto/action.response';
import { ControlNoteDto } from '../actions/dto/control-note.dto';
import { SkipOccurrencesDto } from '../actions/dto/skip-occurrences.dto';
import { CreateActionDto } from '../actions/dto/create-action.dto';
import { CreateBatchDto } from '../actions/dto/create-batch.dto';
import { HistoryQuery } from '../actions/dto/history.query';
import { ListActionsQuery } from '../actions/dto/list-actions.query';
import { OccurrencesQuery, OccurrencesResponse } from '../actions/dto/occurrences.query';
import { UpdateActionDto } from '../actions/dto/update-action.dto';
import { ApiValidationPipe } from '../http/api-validation.pipe';
import { idempotencyClaim } from '../input/idempotency-claim';
import { RpcErrorFilter } from './rpc-error.filter';
import { TenantInboxGuard } from './tenant-inbox.guard';
import { actionId, envelope, messageHeader, validated } from './rpc-input';
import { RPC_BATCH_BODY, RPC_BODY } from './rpc-json-body.pipe';

const DEFAULT_OCCURRENCES = 10;

/**
 * Every `/actions` route as a message pattern, for sibling apps on a NestJS transport. Each
 * handler calls the `ActionCommands` or `ActionQueries` method its HTTP twin calls, after the same signature check,
 * body rules and validation, and answers the same JSON; errors are the twin's (`RpcErrorFilter`).
 */
@UseGuards(SignatureGuard, TenantInboxGuard)
@UseFilters(RpcErrorFilter)
@Controller()
export class ActionsRpcController {
  constructor(
    private readonly commands: ActionCommands,
    private readonly queries: ActionQueries,
    types: ActionTypeRegistry,
  ) {
    this.withData = new ApiValidationPipe(types);
  }

  /** Checks a body's `data` beside the rest of it, as the HTTP routes do. */
  private readonly withData: ApiValidationPipe;

  @MessagePattern(RPC_PATTERNS.create)
  async create(@Payload(RPC_BODY) body: unknown, @Payload() message: SignedMessage, @Caller() caller: VerifiedKey): Promise<ActionResponse> {
    const claim = idempotencyClaim(messageHeader(message.headers, 'Idempotency-Key'), body);
    const { action } = await this.commands.create(await validated(CreateActionDto, body, this.withData), caller, claim);
    return ActionResponse.from(action);
  }

  @MessagePattern(RPC_PATTERNS.createBatch)
  async createBatch(@Payload(RPC_BATCH_BODY) body: unknown, @Caller() caller: VerifiedKey): Promise<ActionBatchResponse> {
    const created = await this.commands.createBatch((await validated(CreateBatchDto, body, this.withData)).items, caller);
    return { items: created.map(ActionResponse.from) };
  }

  @MessagePattern(RPC_PATTERNS.preview)
  async preview(@Payload(RPC_BODY) body: unknown, @Caller() caller: VerifiedKey): Promise<OccurrencesResponse> {
    const { action, ...query } = envelope(body, ['action', 'count']);
    const dto = await validated(CreateActionDto, action, this.withData);
    const { count } = await validated(OccurrencesQuery, query);
    return OccurrencesResponse.from(await this.queries.preview(dto, caller, count ?? DEFAULT_OCCURRENCES));
  }

  @MessagePattern(RPC_PATTERNS.get)
  async get(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    return ActionResponse.from(await this.queries.get(actionId(envelope(body, ['id']).id), scope));
  }

  @MessagePattern(RPC_PATTERNS.list)
  async list(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionPageResponse> {
    const page = await this.queries.list(await validated(ListActionsQuery, body), scope);
    return { items: page.items.map(ActionResponse.from), nextCursor: page.nextCursor };
  }

  @MessagePattern(RPC_PATTERNS.stats)
  async stats(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionStatsResponse> {
    envelope(body, []);
    return this.queries.stats(scope);
  }

  /** The first page (or the page `limit` and `cursor` ask for); the HTTP twin's `Link` header has no place in a reply. */
  @MessagePattern(RPC_PATTERNS.history)
  async history(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<HistoryEntryResponse[]> {
    const { id, ...query } = envelope(body, ['id', 'limit', 'cursor']);
    const page = await this.queries.historyOf(actionId(id), scope, await validated(HistoryQuery, query));
    return page.entries.map(HistoryEntryResponse.from);
  }

  @MessagePattern(RPC_PATTERNS.occurrences)
  async occurrences(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<OccurrencesResponse> {
    const { id, ...query } = envelope(body, ['id', 'count']);
    const { count } = await validated(OccurrencesQuery, query);
    return OccurrencesResponse.from(await this.queries.occurrences(actionId(id), scope, count ?? DEFAULT_OCCURRENCES));
  }

  @MessagePattern(RPC_PATTERNS.update)
  async update(@Payload(RPC_BODY) body: unknown, @Caller() caller: VerifiedKey): Promise<ActionResponse> {
    const { id, changes } = envelope(body, ['id', 'changes']);
    return ActionResponse.from(
      await this.commands.control(actionId(id), tenantScope(caller.tenant), {
        type: 'patched',
        changes: await validated(UpdateActionDto, changes ?? {}),
        by: caller.keyId,
      }),
    );
  }

  /** Answers `null`, as a reply must carry a value where HTTP answers 204. */
  @MessagePattern(RPC_PATTERNS.delete)
  async remove(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<null> {
    await this.commands.control(actionId(envelope(body, ['id']).id), scope, { type: 'deleted' });
    return null;
  }

  /** Replies with the action: `CANCELED`, or still running with `cancelRequestedAt` set (HTTP's 202). */
  @MessagePattern(RPC_PATTERNS.cancel)
  async cancel(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    const { id, ...rest } = envelope(body, ['id', 'note']);
    const { note } = await validated(ControlNoteDto, rest);
    return ActionResponse.from(await this.commands.control(actionId(id), scope, { type: 'canceled', note: note ?? null }));
  }

  @MessagePattern(RPC_PATTERNS.pause)
  async pause(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    const { id, ...rest } = envelope(body, ['id', 'note']);
    const { note } = await validated(ControlNoteDto, rest);
    return ActionResponse.from(await this.commands.control(actionId(id), scope, { type: 'paused', note: note ?? null }));
  }

  @MessagePattern(RPC_PATTERNS.resume)
  async resume(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    return ActionResponse.from(await this.commands.control(actionId(envelope(body, ['id']).id), scope, { type: 'resumed' }));
  }

  @MessagePattern(RPC_PATTERNS.skip)
  async skip(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    const { id, ...rest } = envelope(body, ['id', 'count']);
    const { count } = await validated(SkipOccurrencesDto, rest);
    return ActionResponse.from(await this.commands.control(actionId(id), scope, { type: 'skipRequested', count: count ?? 1 }));
  }

  @MessagePattern(RPC_PATTERNS.retry)
  async retry(@Payload(RPC_BODY) body: unknown, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    return ActionResponse.from(await this.commands.control(actionId(envelope(body, ['id']).id), scope, { type: 'retriedManually' }));
  }
}
