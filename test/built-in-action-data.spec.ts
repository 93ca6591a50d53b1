import { ActionData, HttpRequestActionData, MessageActionData, NotificationTemplateName, SendNotificationActionData } from '@punctual/contract';
import { HTTP_METHODS, HttpRequestData, MessageData, NOTIFICATION_TEMPLATES, NOTIFICATION_TYPES, SendNotificationData } from '@app/built-in-actions';

// The contract types the built-in types' data for producers, apart from the server's data classes
// (which a client cannot load). These checks keep the two in step: the type check of the
// repository fails when a field is added, removed or retyped on one side only.

/** Both have the same fields. */
type SameFields<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
/** Every data the typed client lets through has the types the data class declares. */
type Fits<Typed, Declared> = [Typed] extends [Declared] ? true : false;

const inStep: Record<string, true> = {
  httpRequestFields: true satisfies SameFields<HttpRequestActionData, ActionData<HttpRequestData>>,
  httpRequestTypes: true satisfies Fits<HttpRequestActionData, ActionData<HttpRequestData>>,
  notificationFields: true satisfies SameFields<SendNotificationActionData, ActionData<SendNotificationData>>,
  notificationTypes: true satisfies Fits<SendNotificationActionData, ActionData<SendNotificationData>>,
  messageFields: true satisfies SameFields<MessageActionData, ActionData<MessageData>>,
  messageTypes: true satisfies Fits<MessageActionData, ActionData<MessageData>>,
};

describe("The contract's types of the built-in types' data", () => {
  it('have the fields of the data classes, with types the classes accept', () => {
    expect(Object.values(inStep)).toEqual([true, true, true, true, true, true]);
  });

  it('name the methods, channels and templates the server knows', () => {
    const methods: Record<NonNullable<HttpRequestActionData['method']>, true> = { GET: true, POST: true, PUT: true, PATCH: true, DELETE: true };
    const channels: Record<SendNotificationActionData['notificationType'], true> = { SMS: true, EMAIL: true, PUSH: true };
    const templates: Record<NotificationTemplateName, true> = {
      USER_LATE_PAYMENT_NOTIFICATION: true,
      PAYMENT_RECEIVED_NOTIFICATION: true,
      SUBSCRIPTION_RENEWAL_REMINDER: true,
    };
    expect(Object.keys(methods).sort()).toEqual([...HTTP_METHODS].sort());
    expect(Object.keys(channels).sort()).toEqual([...NOTIFICATION_TYPES].sort());
    expect(Object.keys(templates).sort()).toEqual(Object.keys(NOTIFICATION_TEMPLATES).sort());
  });
});
