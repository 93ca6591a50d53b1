import { Body, Controller, Delete, Get, Headers, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Request, Response } from 'express';
import { ActionStatus } from '@app/domain';
import { TenantScope, tenantScope } from '@app/database';
import { Caller, VerifiedKey } from '@app/signature';
import { CallerScope } from '../input/caller-scope.decorator';
import { InvalidRequestError } from '../errors/action.errors';
import { ApiRefusals, Summary } from '../http/api-refusals.decorator';
import { SignedRoutes } from '../http/signed-routes.decorator';
import { idempotencyClaim } from '../input/idempotency-claim';
import { ActionCommands } from './action-commands.service';
import { ActionQueries } from './action-queries.service';
import { ActionBatchResponse, ActionPageResponse, ActionResponse, ActionStatsResponse, HistoryEntryResponse } from './dto/action.response';
import { ControlNoteDto } from './dto/control-note.dto';
import { SkipOccurrencesDto } from './dto/skip-occurrences.dto';
import { CreateActionDto } from './dto/create-action.dto';
import { CreateBatchDto } from './dto/create-batch.dto';
import { HistoryQuery } from './dto/history.query';
import { ListActionsQuery } from './dto/list-actions.query';
import { OccurrencesQuery, OccurrencesResponse } from './dto/occurrences.query';
import { UpdateActionDto } from './dto/update-action.dto';

const DEFAULT_OCCURRENCES = 10;
const ID = new ParseUUIDPipe({ exceptionFactory: () => new InvalidRequestError('id must be a UUID') });

@SignedRoutes('actions')
@Controller('actions')
export class ActionsController {
  constructor(
    private readonly commands: ActionCommands,
    private readonly queries: ActionQueries,
  ) {}

  @Post()
  @Summary('Create an action')
  @ApiRefusals.overQuota()
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Repeat a create safely for 24 h: the repeat answers 200 with the first action' })
  @ApiCreatedResponse({ type: ActionResponse })
  @ApiOkResponse({ type: ActionResponse, description: 'A repeat of an earlier create with the same Idempotency-Key and the same body' })
  @ApiBadRequestResponse({ description: 'Invalid body, unknown action type, or data that does not fit the type' })
  @ApiUnprocessableEntityResponse({ description: 'The Idempotency-Key was used in the last 24 h with a different body; nothing was created' })
  @ApiPayloadTooLargeResponse({ description: 'Body over 64 KiB' })
  async create(
    @Body() dto: CreateActionDto,
    @Caller() caller: VerifiedKey,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<ActionResponse> {
    const { action, created } = await this.commands.create(dto, caller, idempotencyClaim(idempotencyKey, req.body));
    res.status(created ? 201 : 200);
    return ActionResponse.from(action);
  }

  @Post('batch')
  @Summary('Create several actions at once, all or none')
  @ApiRefusals.overQuota()
  @ApiCreatedResponse({ type: ActionBatchResponse })
  @ApiBadRequestResponse({ description: 'Names the index of every bad item; nothing is stored' })
  @ApiPayloadTooLargeResponse({ description: 'Body over 1 MiB' })
  async createBatch(@Body() dto: CreateBatchDto, @Caller() caller: VerifiedKey): Promise<ActionBatchResponse> {
    const created = await this.commands.createBatch(dto.items, caller);
    return { items: created.map(ActionResponse.from) };
  }

  @Post('preview')
  @Summary('Preview when an action would run, storing nothing')
  @HttpCode(200)
  @ApiOkResponse({ type: OccurrencesResponse, description: 'The times the action would run at; nothing is stored or queued' })
  @ApiBadRequestResponse({ description: 'Exactly as POST /actions would answer' })
  async preview(@Body() dto: CreateActionDto, @Query() query: OccurrencesQuery, @Caller() caller: VerifiedKey): Promise<OccurrencesResponse> {
    return OccurrencesResponse.from(await this.queries.preview(dto, caller, query.count ?? DEFAULT_OCCURRENCES));
  }

  @Get()
  @Summary('List actions')
  @ApiRefusals.badRequest('A bad status, limit or cursor')
  @ApiOkResponse({ type: ActionPageResponse })
  async list(@Query() query: ListActionsQuery, @CallerScope() scope: TenantScope): Promise<ActionPageResponse> {
    const page = await this.queries.list(query, scope);
    return { items: page.items.map(ActionResponse.from), nextCursor: page.nextCursor };
  }

  @Get('stats')
  @Summary('Count actions by status and by type')
  @ApiOkResponse({ type: ActionStatsResponse })
  stats(@CallerScope() scope: TenantScope): Promise<ActionStatsResponse> {
    return this.queries.stats(scope);
  }

  @Get(':id')
  @Summary('Get an action')
  @ApiRefusals.badRequest('id is not a UUID')
  @ApiOkResponse({ type: ActionResponse })
  @ApiNotFoundResponse()
  async get(@Param('id', ID) id: string, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    return ActionResponse.from(await this.queries.get(id, scope));
  }

  @Get(':id/history')
  @Summary("Read an action's history")
  @ApiOkResponse({
    type: [HistoryEntryResponse],
    description: 'Oldest first; when more entries follow, the `Link` header names the next page',
    headers: { Link: { description: '`</actions/ID/history?limit=N&cursor=…>; rel="next"`, only when more entries follow', schema: { type: 'string' } } },
  })
  @ApiBadRequestResponse({ description: 'limit outside 1–1000, or a cursor not taken from a Link header' })
  @ApiNotFoundResponse()
  async history(
    @Param('id', ID) id: string,
    @CallerScope() scope: TenantScope,
    @Query() query: HistoryQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<HistoryEntryResponse[]> {
    const page = await this.queries.historyOf(id, scope, query);
    if (page.next) res.setHeader('Link', `</actions/${id}/history?limit=${page.next.limit}&cursor=${page.next.cursor}>; rel="next"`);
    return page.entries.map(HistoryEntryResponse.from);
  }

  @Get(':id/occurrences')
  @Summary("List an action's next occurrences")
  @ApiOkResponse({
    type: OccurrencesResponse,
    description: 'The next scheduled times from the current occurrence on, honouring executionRemainder and endAt',
  })
  @ApiBadRequestResponse({ description: 'count outside 1–100' })
  @ApiNotFoundResponse()
  async occurrences(@Param('id', ID) id: string, @CallerScope() scope: TenantScope, @Query() query: OccurrencesQuery): Promise<OccurrencesResponse> {
    return OccurrencesResponse.from(await this.queries.occurrences(id, scope, query.count ?? DEFAULT_OCCURRENCES));
  }

  @Patch(':id')
  @Summary('Change an action')
  @ApiRefusals.badRequest()
  @ApiRefusals.overQuota()
  @ApiOkResponse({ type: ActionResponse })
  @ApiConflictResponse({ description: 'Locked: running, finished, or due within LOCK_WINDOW_MS' })
  @ApiNotFoundResponse()
  async update(@Param('id', ID) id: string, @Body() dto: UpdateActionDto, @Caller() caller: VerifiedKey): Promise<ActionResponse> {
    return ActionResponse.from(await this.commands.control(id, tenantScope(caller.tenant), { type: 'patched', changes: dto, by: caller.keyId }));
  }

  @Delete(':id')
  @Summary('Delete an action')
  @ApiRefusals.badRequest('id is not a UUID')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'Locked: running, or PENDING within LOCK_WINDOW_MS (POST /actions/:id/cancel stops it)' })
  @ApiNotFoundResponse()
  async remove(@Param('id', ID) id: string, @CallerScope() scope: TenantScope): Promise<void> {
    await this.commands.control(id, scope, { type: 'deleted' });
  }

  @Post(':id/cancel')
  @Summary('Cancel an action')
  @ApiRefusals.badRequest()
  @ApiOkResponse({ type: ActionResponse, description: 'CANCELED now: it never runs again' })
  @ApiAcceptedResponse({
    type: ActionResponse,
    description:
      'The occurrence that is running or locked finishes first (cancelRequestedAt is set); then the action is CANCELED, with no retry and no next occurrence',
  })
  @ApiConflictResponse({ description: 'The action is already final (COMPLETED, FAILED, NO_ACTION or CANCELED)' })
  @ApiNotFoundResponse()
  async cancel(
    @Param('id', ID) id: string,
    @CallerScope() scope: TenantScope,
    @Body() dto: ControlNoteDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ActionResponse> {
    const action = await this.commands.control(id, scope, { type: 'canceled', note: dto.note ?? null });
    res.status(action.status === ActionStatus.Canceled ? 200 : 202);
    return ActionResponse.from(action);
  }

  @Post(':id/pause')
  @Summary('Pause an action')
  @ApiRefusals.badRequest()
  @ApiRefusals.overQuota()
  @HttpCode(200)
  @ApiOkResponse({
    type: ActionResponse,
    description:
      'paused: true. No attempt of a later occurrence starts until resumed; one that is running or locked finishes first. Pausing again changes nothing',
  })
  @ApiConflictResponse({ description: 'The action is already final (COMPLETED, FAILED, NO_ACTION or CANCELED)' })
  @ApiNotFoundResponse()
  async pause(@Param('id', ID) id: string, @CallerScope() scope: TenantScope, @Body() dto: ControlNoteDto): Promise<ActionResponse> {
    return ActionResponse.from(await this.commands.control(id, scope, { type: 'paused', note: dto.note ?? null }));
  }

  @Post(':id/resume')
  @Summary('Resume a paused action')
  @ApiRefusals.badRequest()
  @ApiRefusals.overQuota()
  @HttpCode(200)
  @ApiOkResponse({
    type: ActionResponse,
    description: 'paused: false. An occurrence whose time passed while paused follows the misfirePolicy (a one-off action runs now)',
  })
  @ApiConflictResponse({ description: 'The action is already final (COMPLETED, FAILED, NO_ACTION or CANCELED)' })
  @ApiNotFoundResponse()
  async resume(@Param('id', ID) id: string, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    return ActionResponse.from(await this.commands.control(id, scope, { type: 'resumed' }));
  }

  @Post(':id/skip')
  @Summary('Skip the next occurrences of a repeating action')
  @ApiRefusals.badRequest()
  @ApiRefusals.overQuota()
  @HttpCode(200)
  @ApiOkResponse({
    type: ActionResponse,
    description:
      'The next `count` occurrences that are not locked do not run (a running or locked one runs first); they do not count as executions. COMPLETED when none is left before endAt',
  })
  @ApiConflictResponse({ description: 'A one-off action, or one already final' })
  @ApiNotFoundResponse()
  async skip(@Param('id', ID) id: string, @CallerScope() scope: TenantScope, @Body() dto: SkipOccurrencesDto): Promise<ActionResponse> {
    return ActionResponse.from(await this.commands.control(id, scope, { type: 'skipRequested', count: dto.count ?? 1 }));
  }

  @Post(':id/retry')
  @Summary('Retry a FAILED or NO_ACTION action')
  @ApiRefusals.badRequest()
  @ApiRefusals.overQuota()
  @HttpCode(200)
  @ApiOkResponse({ type: ActionResponse })
  @ApiConflictResponse({ description: 'Only FAILED or NO_ACTION actions can be retried' })
  @ApiNotFoundResponse()
  async retry(@Param('id', ID) id: string, @CallerScope() scope: TenantScope): Promise<ActionResponse> {
    return ActionResponse.from(await this.commands.control(id, scope, { type: 'retriedManually' }));
  }
}
