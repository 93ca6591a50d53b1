import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsString, ValidateBy, ValidateNested } from 'class-validator';
import { TENANT_ID_RULE, isTenantId } from '@app/domain';
import { OptionalNotNull } from '../../input/not-null';
import { TenantLimitsDto } from './tenant-limits.dto';

/** Body of `POST /admin/api/tenants`. */
export class CreateTenantDto {
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
}

/** Body of `PATCH /admin/api/tenants/:id`. */
export class UpdateTenantDto {
  @ApiProperty({ type: TenantLimitsDto })
  @IsObject()
  @ValidateNested()
  @Type(() => TenantLimitsDto)
  limits: TenantLimitsDto;
}
