import { ApiProperty } from '@nestjs/swagger';
import { TENANT_ID_RULE } from '@app/domain';
import { modelOrNull } from '../../http/openapi-document';
import { TenantMessagingDto } from './tenant-messaging.dto';

// The admin API's answers as the OpenAPI document describes them; the service answers plain objects of this shape.

/** A tenant's own limits; null where the deployment's default applies. */
export class TenantLimitsResponse {
  @ApiProperty({ type: 'integer', nullable: true, description: 'TENANT_MAX_ACTIVE_ACTIONS when null' })
  maxActiveActions: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'TENANT_CREATE_RATE when null' })
  createRate: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'TENANT_MAX_CONCURRENCY when null' })
  maxConcurrency: number | null;
}

export class TenantKeyResponse {
  @ApiProperty({ example: 'billing-2' })
  keyId: string;

  @ApiProperty({ enum: ['environment', 'admin'], description: 'Set in API_KEYS, or made through this API or the console' })
  source: 'environment' | 'admin';

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null for a key of API_KEYS' })
  createdAt: Date | null;
}

export class TenantResponse {
  @ApiProperty({ example: 'billing', description: TENANT_ID_RULE })
  id: string;

  @ApiProperty({ type: TenantLimitsResponse })
  limits: TenantLimitsResponse;

  @ApiProperty({
    ...modelOrNull(TenantMessagingDto),
    description: 'What its MESSAGE actions may reach; null is every transport and pattern (the tenant `default` until an operator limits it)',
  })
  messaging: TenantMessagingDto | null;

  @ApiProperty({ type: 'integer', description: 'Its PENDING and IN_PROGRESS actions' })
  activeActions: number;

  @ApiProperty({ type: [TenantKeyResponse] })
  keys: TenantKeyResponse[];

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: Date;
}

export class TenantListResponse {
  @ApiProperty({ type: [TenantResponse] })
  items: TenantResponse[];
}

export class CreatedKeyResponse {
  @ApiProperty({ example: 'billing-k7f3a9' })
  keyId: string;

  @ApiProperty({ description: 'Shown this once: store it now' })
  secret: string;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: Date;
}
