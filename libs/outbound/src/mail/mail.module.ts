import { Module } from '@nestjs/common';
import { SmtpMailer } from './smtp-mailer';

/** Email through `SMTP_URL`, for EMAIL notifications and `mailto:` webhook subscriptions alike. */
@Module({ providers: [SmtpMailer], exports: [SmtpMailer] })
export class MailModule {}
