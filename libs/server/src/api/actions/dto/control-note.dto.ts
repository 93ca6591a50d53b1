import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { CancelActionRequest, PauseActionRequest } from '@punctual/contract';
import { OptionalNotNull } from '../../input/not-null';
import { IsStorableText } from '../../input/storable-text.decorator';

/** Body of `POST /actions/:id/cancel` and `/pause` (may be empty); any other field is rejected. */
export class ControlNoteDto implements CancelActionRequest, PauseActionRequest {
  @ApiPropertyOptional({ example: 'customer closed the account', description: "Why: kept in the action's history" })
  @OptionalNotNull()
  @IsString()
  @MaxLength(500)
  @IsStorableText()
  note?: string;
}
