import { Injectable } from '@nestjs/common';
import { NotificationProvider, RenderedNotification } from './notification-provider';

/** The default when a channel has no provider: the rendered message goes into the action's history. */
@Injectable()
export class RecordingProvider implements NotificationProvider {
  async send(message: RenderedNotification): Promise<string> {
    return `${message.channel} to ${message.to} recorded (no ${message.channel} provider configured): "${message.subject}" — ${message.body}`;
  }
}
