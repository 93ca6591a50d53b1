import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { ActionStatus } from '@app/domain';
import { ListActionsParams } from '@punctual/contract';
import { PageQuery } from '../../input/page.query';
import { IsStorableText } from '../../input/storable-text.decorator';

export class ListActionsQuery extends PageQuery implements ListActionsParams {
  @ApiPropertyOptional({ enum: ActionStatus })
  @IsOptional()
  @IsEnum(ActionStatus, { message: `status must be one of ${Object.values(ActionStatus).join(', ')}` })
  status?: ActionStatus;

  @ApiPropertyOptional({ example: 'HTTP_REQUEST' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  @IsStorableText()
  action?: string;
}
