import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsString, ValidateBy, ValidateIf, ValidateNested } from 'class-validator';
import { TENANT_ID_RULE, isTenantId } from '@app/domain';
import { CreateTenantRequest, UpdateTenantRequest } from '@punctual/contract';
import { OptionalNotNull } from '../../input/not-null';
import { TenantLimitsDto } from './tenant-limits.dto';
import { modelOrNull } from '../../http/openapi-document';
import { TenantMessagingDto } from './tenant-messaging.dto';

/** Body of `POST /admin/api/tenants`. */
export class CreateTenantDto implements CreateTenantRequest {
  @ApiProperty({ example: 'billing', description: TENANT_ID_RULE })
  @IsString()
  @ValidateBy({ name: 'isTenantId', validator: { validate: (value: string) => isTenantId(value), defaultMessage: () => `id must be ${TENANT_ID_RULE}` } })
  id: string;

  @ApiPropertyOptional({ type: TenantLimitsDto })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => TenantLimitsDto)
  limits?: TenantLimitsDto;

  @ApiPropertyOptional({ type: TenantMessagingDto })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => TenantMessagingDto)
  messaging?: TenantMessagingDto;
}

/** Body of `PATCH /admin/api/tenants/:id`: a field left out is unchanged. */
export class UpdateTenantDto implements UpdateTenantRequest {
  @ApiPropertyOptional({ type: TenantLimitsDto })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => TenantLimitsDto)
  limits?: TenantLimitsDto;

  /** Null forgets the grant: the tenant `default` reaches every transport and pattern again, any other none. */
  @ApiPropertyOptional(modelOrNull(TenantMessagingDto))
  @ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => TenantMessagingDto)
  messaging?: TenantMessagingDto | null;
}
