import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { CreateTenantDto, UpdateTenantDto } from './dto/tenant.dto';
import { CreatedKey, TenantView, TenantsAdminService } from './tenants-admin.service';

/**
 * `/admin/api/tenants`: tenants, their limits, messaging and keys, as JSON for operators' scripts, behind the
 * admin login (see AdminApiModule). Unknown ids answer 404 like every other route.
 */
@ApiExcludeController()
@UseFilters(ApiExceptionFilter)
@Controller('admin/api/tenants')
export class TenantsAdminController {
  constructor(private readonly tenants: TenantsAdminService) {}

  @Post()
  @HttpCode(201)
  create(@Body() dto: CreateTenantDto): Promise<TenantView> {
    return this.tenants.create(dto.id, dto.limits, dto.messaging);
  }

  @Get()
  async list(): Promise<{ items: TenantView[] }> {
    return { items: await this.tenants.list() };
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<TenantView> {
    return this.tenants.get(id);
  }

  @Patch(':id')
  update(@Param('id') id: string, @Body() dto: UpdateTenantDto): Promise<TenantView> {
    return this.tenants.update(id, dto);
  }

  /** Needs no body. Its answer holds the secret, so no cache along the way may keep it. */
  @Post(':id/keys')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  createKey(@Param('id') id: string): Promise<CreatedKey> {
    return this.tenants.createKey(id);
  }

  @Delete(':id/keys/:keyId')
  @HttpCode(204)
  async revokeKey(@Param('id') id: string, @Param('keyId') keyId: string): Promise<void> {
    await this.tenants.revokeKey(id, keyId);
  }
}
