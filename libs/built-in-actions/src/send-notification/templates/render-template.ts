import { PermanentFulfillmentError } from '@punctual/sdk';
import { NOTIFICATION_TEMPLATES } from '../notification-templates';
import { SendNotificationData } from '../send-notification.data';

export interface RenderedText {
  subject: string;
  body: string;
}

/** Fills `{{field}}` placeholders of the action's template with the data's string fields. */
export function renderTemplate(data: SendNotificationData): RenderedText {
  const template = NOTIFICATION_TEMPLATES[data.templateType];
  if (!template) throw new PermanentFulfillmentError(`Unknown templateType ${data.templateType}`);
  const values = data as unknown as Record<string, unknown>;
  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, field: string) => (typeof values[field] === 'string' ? values[field] : ''));
  return { subject: fill(template.subject), body: fill(template.body) };
}
