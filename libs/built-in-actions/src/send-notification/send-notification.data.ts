import { IsEmail, IsIn, IsString, Length, Matches, ValidateIf } from 'class-validator';
import { NOTIFICATION_TEMPLATES } from './notification-templates';

export const NOTIFICATION_TYPES = ['SMS', 'EMAIL', 'PUSH'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** `data` of a SEND_NOTIFICATION action; the recipient field depends on the channel. */
export class SendNotificationData {
  @IsIn(NOTIFICATION_TYPES, { message: `notificationType must be one of ${NOTIFICATION_TYPES.join(', ')}` })
  notificationType: NotificationType;

  @IsIn(Object.keys(NOTIFICATION_TEMPLATES), {
    message: `templateType must be one of ${Object.keys(NOTIFICATION_TEMPLATES).join(', ')}`,
  })
  templateType: string;

  @IsString()
  @Length(1, 200)
  subject: string;

  @IsString()
  @Length(1, 200)
  name: string;

  @ValidateIf((d: SendNotificationData) => d.notificationType === 'SMS' || d.mobile !== undefined)
  @Matches(/^\+?[0-9]{6,15}$/, { message: 'mobile must be 6 to 15 digits, optionally starting with +' })
  mobile?: string;

  @ValidateIf((d: SendNotificationData) => d.notificationType === 'EMAIL' || d.email !== undefined)
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string;

  @ValidateIf((d: SendNotificationData) => d.notificationType === 'PUSH' || d.deviceToken !== undefined)
  @IsString()
  @Length(1, 4096)
  deviceToken?: string;
}
