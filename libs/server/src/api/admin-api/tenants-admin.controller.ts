import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { ApiRefusals } from '../http/api-refusals.decorator';
import { ADMIN_SCHEME } from '../http/openapi';
import { CreateTenantDto, UpdateTenantDto } from './dto/tenant.dto';
import { CreatedKeyResponse, TenantListResponse, TenantResponse } from './dto/tenant-response.dto';
import { CreatedKey, TenantView, TenantsAdminService } from './tenants-admin.service';

/**
 * `/admin/api/tenants`: tenants, their limits, messaging and keys, as JSON for operators' scripts, behind the
 * admin login (see AdminApiModule). Unknown ids answer 404 like every other route.
 */
@ApiTags('admin')
@ApiBasicAuth(ADMIN_SCHEME)
@ApiUnauthorizedResponse({ description: 'No admin login, or a wrong one' })
@ApiTooManyRequestsResponse({ description: 'Too many wrong logins from this address: wait for Retry-After' })
@ApiForbiddenResponse({ description: 'Sent from another site (Sec-Fetch-Site, Origin or Referer): scripts send none of these' })
@ApiUnsupportedMediaTypeResponse({ description: 'A body that is not application/json' })
@ApiRefusals.anyRoute()
@UseFilters(ApiExceptionFilter)
@Controller('admin/api/tenants')
export class TenantsAdminController {
  constructor(private readonly tenants: TenantsAdminService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createTenant', summary: 'Create a tenant' })
  @ApiCreatedResponse({ type: TenantResponse })
  @ApiBadRequestResponse({ description: 'A bad id, limit or grant, or a transport MESSAGE_TRANSPORTS does not name' })
  @ApiConflictResponse({ description: 'A tenant of that id exists' })
  create(@Body() dto: CreateTenantDto): Promise<TenantView> {
    return this.tenants.create(dto.id, dto.limits, dto.messaging);
  }

  @Get()
  @ApiOperation({ operationId: 'listTenants', summary: 'List tenants' })
  @ApiOkResponse({ type: TenantListResponse })
  async list(): Promise<{ items: TenantView[] }> {
    return { items: await this.tenants.list() };
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getTenant', summary: 'Get a tenant' })
  @ApiOkResponse({ type: TenantResponse })
  @ApiNotFoundResponse()
  get(@Param('id') id: string): Promise<TenantView> {
    return this.tenants.get(id);
  }

  @Patch(':id')
  @ApiOperation({ operationId: 'updateTenant', summary: "Change a tenant's limits or messaging" })
  @ApiOkResponse({ type: TenantResponse })
  @ApiBadRequestResponse({ description: 'A bad limit or grant, or a transport MESSAGE_TRANSPORTS does not name' })
  @ApiNotFoundResponse()
  update(@Param('id') id: string, @Body() dto: UpdateTenantDto): Promise<TenantView> {
    return this.tenants.update(id, dto);
  }

  /** Needs no body. Its answer holds the secret, so no cache along the way may keep it. */
  @Post(':id/keys')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ operationId: 'createTenantKey', summary: 'Make an API key for a tenant' })
  @ApiCreatedResponse({ type: CreatedKeyResponse, description: 'The secret is shown this once' })
  @ApiNotFoundResponse()
  @ApiServiceUnavailableResponse({ description: 'SECRET_KEY is not set, so no key can be made at run time' })
  createKey(@Param('id') id: string): Promise<CreatedKey> {
    return this.tenants.createKey(id);
  }

  @Delete(':id/keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeTenantKey', summary: 'Revoke an API key of a tenant' })
  @ApiNoContentResponse({ description: 'Revoked: every API process refuses it within 2 seconds' })
  @ApiNotFoundResponse({ description: 'No such tenant, or no such key of it' })
  @ApiConflictResponse({ description: 'A key of API_KEYS: retire it in the environment' })
  async revokeKey(@Param('id') id: string, @Param('keyId') keyId: string): Promise<void> {
    await this.tenants.revokeKey(id, keyId);
  }
}
