import { Body, Controller, Delete, Get, Headers, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiPayloadTooLargeResponse, ApiSecurity, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Response } from 'express';
import { ApiKeyId, SignatureGuard } from '@app/signature';
import { InvalidRequestError } from './action.errors';
import { ActionsService } from './actions.service';
import { ApiExceptionFilter } from './api-exception.filter';
import { ActionBatchResponse, ActionPageResponse, ActionResponse, ActionStatsResponse, HistoryEntryResponse } from './dto/action.response';
import { CreateActionDto } from './dto/create-action.dto';
import { CreateBatchDto } from './dto/create-batch.dto';
import { ListActionsQuery } from './dto/list-actions.query';
import { UpdateActionDto } from './dto/update-action.dto';

const ID = new ParseUUIDPipe({ exceptionFactory: () => new InvalidRequestError('id must be a UUID') });
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

@ApiTags('actions')
@ApiSecurity('X-Punctual-Key')
@ApiSecurity('X-Punctual-Timestamp')
@ApiSecurity('X-Punctual-Nonce')
@ApiSecurity('X-Punctual-Signature')
@ApiUnauthorizedResponse({ description: 'Missing, malformed, expired, replayed or wrong signature' })
@UseGuards(SignatureGuard)
@UseFilters(ApiExceptionFilter)
@Controller('actions')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Post()
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Repeat a create safely for 24 h: the repeat answers 200 with the first action' })
  @ApiCreatedResponse({ type: ActionResponse })
  @ApiOkResponse({ type: ActionResponse, description: 'A repeat of an earlier create with the same Idempotency-Key' })
  @ApiBadRequestResponse({ description: 'Invalid body, unknown action type, or data that does not fit the type' })
  @ApiPayloadTooLargeResponse({ description: 'Body over 64 KiB' })
  async create(
    @Body() dto: CreateActionDto,
    @ApiKeyId() keyId: string,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<ActionResponse> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new InvalidRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const { action, created } = await this.actions.create(dto, keyId, idempotencyKey);
    res.status(created ? 201 : 200);
    return ActionResponse.from(action);
  }

  @Post('batch')
  @ApiCreatedResponse({ type: ActionBatchResponse })
  @ApiBadRequestResponse({ description: 'Names the index of every bad item; nothing is stored' })
  @ApiPayloadTooLargeResponse({ description: 'Body over 1 MiB' })
  async createBatch(@Body() dto: CreateBatchDto): Promise<ActionBatchResponse> {
    const created = await this.actions.createBatch(dto.items);
    return { items: created.map(ActionResponse.from) };
  }

  @Get()
  @ApiOkResponse({ type: ActionPageResponse })
  async list(@Query() query: ListActionsQuery): Promise<ActionPageResponse> {
    const page = await this.actions.list(query);
    return { items: page.items.map(ActionResponse.from), nextCursor: page.nextCursor };
  }

  @Get('stats')
  @ApiOkResponse({ type: ActionStatsResponse })
  stats(): Promise<ActionStatsResponse> {
    return this.actions.stats();
  }

  @Get(':id')
  @ApiOkResponse({ type: ActionResponse })
  @ApiNotFoundResponse()
  async get(@Param('id', ID) id: string): Promise<ActionResponse> {
    return ActionResponse.from(await this.actions.get(id));
  }

  @Get(':id/history')
  @ApiOkResponse({ type: [HistoryEntryResponse] })
  @ApiNotFoundResponse()
  async history(@Param('id', ID) id: string): Promise<HistoryEntryResponse[]> {
    return (await this.actions.historyOf(id)).map(HistoryEntryResponse.from);
  }

  @Patch(':id')
  @ApiOkResponse({ type: ActionResponse })
  @ApiConflictResponse({ description: 'Locked: running, finished, or due within LOCK_WINDOW_MS' })
  @ApiNotFoundResponse()
  async update(@Param('id', ID) id: string, @Body() dto: UpdateActionDto): Promise<ActionResponse> {
    return ActionResponse.from(await this.actions.update(id, dto));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiConflictResponse({ description: 'Locked: running, or PENDING within LOCK_WINDOW_MS' })
  @ApiNotFoundResponse()
  async remove(@Param('id', ID) id: string): Promise<void> {
    await this.actions.remove(id);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOkResponse({ type: ActionResponse })
  @ApiConflictResponse({ description: 'Only FAILED or NO_ACTION actions can be retried' })
  @ApiNotFoundResponse()
  async retry(@Param('id', ID) id: string): Promise<ActionResponse> {
    return ActionResponse.from(await this.actions.retry(id));
  }
}
