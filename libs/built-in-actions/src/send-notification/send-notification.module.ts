import { Module } from '@nestjs/common';
import { PunctualConfig } from '@app/config';
import { MailModule } from '@app/outbound';
import { EMAIL_PROVIDER, PUSH_PROVIDER, SMS_PROVIDER } from './providers/notification-provider';
import { RecordingProvider } from './providers/recording.provider';
import { SmtpEmailProvider } from './providers/smtp-email.provider';
import { SendNotificationFulfillment } from './send-notification.fulfillment';

/** SEND_NOTIFICATION with its channel providers: SMTP for EMAIL when `SMTP_URL` is set, else recording. */
@Module({
  imports: [MailModule],
  providers: [
    RecordingProvider,
    { provide: SMS_PROVIDER, useExisting: RecordingProvider },
    { provide: PUSH_PROVIDER, useExisting: RecordingProvider },
    SmtpEmailProvider,
    {
      provide: EMAIL_PROVIDER,
      inject: [PunctualConfig, SmtpEmailProvider, RecordingProvider],
      useFactory: (config: PunctualConfig, smtp: SmtpEmailProvider, recording: RecordingProvider) => (config.smtp.url ? smtp : recording),
    },
    SendNotificationFulfillment,
  ],
})
export class SendNotificationModule {}
