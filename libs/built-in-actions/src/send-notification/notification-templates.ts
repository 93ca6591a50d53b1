/** A message template; `{{name}}`, `{{subject}}` and other data fields are substituted. */
export interface NotificationTemplate {
  readonly subject: string;
  readonly body: string;
}

/**
 * Templates by `templateType`. Shared so that the API rejects an unknown template
 * before storing, and the worker renders the same text.
 */
export const NOTIFICATION_TEMPLATES: Readonly<Record<string, NotificationTemplate>> = {
  USER_LATE_PAYMENT_NOTIFICATION: {
    subject: '{{subject}}',
    body: 'Hi {{name}}, your payment is overdue. Please settle it as soon as possible to keep your service running.',
  },
  PAYMENT_RECEIVED_NOTIFICATION: {
    subject: '{{subject}}',
    body: 'Hi {{name}}, we have received your payment. Thank you!',
  },
  SUBSCRIPTION_RENEWAL_REMINDER: {
    subject: '{{subject}}',
    body: 'Hi {{name}}, your subscription renews soon. No action is needed if your payment details are up to date.',
  },
};
