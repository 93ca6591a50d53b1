import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, Length } from 'class-validator';
import { MAX_GRANTED_PATTERNS, MAX_GRANTED_TRANSPORTS, MAX_PATTERN_LENGTH, MessagingGrant } from '@app/domain';
import { TenantMessagingBody } from '@punctual/contract';

/**
 * What a tenant's MESSAGE actions may reach; both lists replace what it had. Whether each
 * transport is configured is checked by `TenantsAdminService`, which knows MESSAGE_TRANSPORTS.
 */
export class TenantMessagingDto implements MessagingGrant, TenantMessagingBody {
  /** Names of MESSAGE_TRANSPORTS. */
  @ApiProperty({ type: [String], maxItems: MAX_GRANTED_TRANSPORTS, example: ['default'] })
  @IsArray()
  @ArrayMaxSize(MAX_GRANTED_TRANSPORTS)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  transports: string[];

  /** Exact patterns, or prefixes ending in `.` that allow every pattern starting with them. */
  @ApiProperty({ type: [String], maxItems: MAX_GRANTED_PATTERNS, example: ['billing.', 'audit.record'] })
  @IsArray()
  @ArrayMaxSize(MAX_GRANTED_PATTERNS)
  @IsString({ each: true })
  @Length(1, MAX_PATTERN_LENGTH, { each: true })
  patterns: string[];
}
