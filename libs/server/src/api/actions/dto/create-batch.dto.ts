import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, ValidateNested } from 'class-validator';
import { CreateBatchRequest } from '@punctual/contract';
import { ValidatedInSlices } from '../../http/validated-in-slices';
import { CreateActionDto } from './create-action.dto';
import { HoldsActionData } from '../../http/action-data-problems';

export const MAX_BATCH_SIZE = 1000;

/** Body of `POST /actions/batch`: all items are stored, or none. */
@HoldsActionData('items')
export class CreateBatchDto implements CreateBatchRequest {
  @ApiProperty({ type: [CreateActionDto], maxItems: MAX_BATCH_SIZE })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_SIZE)
  @ValidateNested({ each: true })
  @ValidatedInSlices()
  @Type(() => CreateActionDto)
  items: CreateActionDto[];
}
