// Action types as a producer sees them: a map of type names to the `data` each takes, so that a
// create names a type the map knows and gives it that type's data, checked by the compiler. The
// API checks the same at run time, against the schema of the type on the server.
import { CreateActionRequest, JsonObject } from './actions';

/** `data` of an `HTTP_REQUEST` action: call `url`; a 2xx answer is success. */
export interface HttpRequestActionData {
  /** An `http` or `https` URL without user information. */
  url: string;
  /** `POST` by default. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as given; the API refuses the headers a call may not set (`Host`, `X-Forwarded-*`, …). */
  headers?: Record<string, string>;
  /** Any JSON value: an object or array is sent as JSON, a string as it is. Not sent with `GET`. */
  body?: unknown;
  /** 1 to 120000; 10000 by default. */
  timeoutMs?: number;
}

/** The templates a `SEND_NOTIFICATION` action renders. */
export type NotificationTemplateName = 'USER_LATE_PAYMENT_NOTIFICATION' | 'PAYMENT_RECEIVED_NOTIFICATION' | 'SUBSCRIPTION_RENEWAL_REMINDER';

interface NotificationFields {
  templateType: NotificationTemplateName;
  /** 1 to 200 characters, substituted into the template. */
  subject: string;
  /** 1 to 200 characters, substituted into the template. */
  name: string;
  /** 6 to 15 digits, optionally starting with `+`. */
  mobile?: string;
  email?: string;
  /** 1 to 4096 characters. */
  deviceToken?: string;
}

/** `data` of a `SEND_NOTIFICATION` action: a template sent over one channel, whose recipient field is required. */
export type SendNotificationActionData =
  | (NotificationFields & { notificationType: 'SMS'; mobile: string })
  | (NotificationFields & { notificationType: 'EMAIL'; email: string })
  | (NotificationFields & { notificationType: 'PUSH'; deviceToken: string });

/** `data` of a `MESSAGE` action: a NestJS microservice message to a sibling app. */
export interface MessageActionData {
  /** The message pattern the sibling handles; the action's tenant must be allowed to send it. */
  pattern: string;
  /** Any JSON value; it reaches the sibling as `payload`. */
  payload?: unknown;
  /** A name of the server's `MESSAGE_TRANSPORTS`; `default` when left out. */
  transport?: string;
  /** `true` (default): a reply is awaited; `false`: the message is emitted as an event. */
  expectReply?: boolean;
  /** 1 to 120000; 10000 by default. */
  timeoutMs?: number;
}

/** The types every Punctual server knows, by name. */
export interface BuiltInActionTypes {
  HTTP_REQUEST: HttpRequestActionData;
  SEND_NOTIFICATION: SendNotificationActionData;
  MESSAGE: MessageActionData;
}

/** Any type name with any JSON object as its data: the map for a producer that opts out of the compiler's checks. */
export type UntypedActionTypes = Record<string, JsonObject>;

/** No action types of one's own: the built-in ones alone. */
export type NoActionTypes = Record<never, never>;

/** The built-in types with a project's own (`Types`) beside them; a project's type of a built-in name replaces it. */
export type KnownActionTypes<Types extends object = NoActionTypes> = Omit<BuiltInActionTypes, keyof Types> & Types;

/** The type names a client over `Types` knows. */
export type ActionName<Types extends object = NoActionTypes> = keyof KnownActionTypes<Types> & string;

/**
 * A create body for one of the types a client over `Types` knows, built-in ones included: a union
 * on `action`, so that `data` is checked against the type named.
 */
export type CreateActionBody<Types extends object = NoActionTypes> = {
  [Name in ActionName<Types>]: CreateActionRequest<Name, KnownActionTypes<Types>[Name]>;
}[ActionName<Types>];

type Method = (...args: never[]) => unknown;

/** The JSON shape of a data class: its fields, nested ones too, without its methods. */
export type ActionData<Data> = Data extends Method
  ? never
  : Data extends readonly (infer Item)[]
    ? readonly ActionData<Item>[]
    : Data extends object
      ? { [Key in keyof Data as Data[Key] extends Method ? never : Key]: ActionData<Data[Key]> }
      : Data;

/** What `defineActionType` from `@punctual/sdk` answers, as far as a map of types needs it. */
export interface ActionTypeDefinitionLike {
  readonly type: string;
  readonly dataClass: abstract new (...args: never[]) => object;
}

/**
 * The map of action types that definitions make, e.g. `ActionTypeMap<typeof SEND_SMS | typeof JOURNAL_ENTRY>`
 * from `defineActionType` results: each type's name to the JSON shape of its data class.
 */
export type ActionTypeMap<Definitions extends ActionTypeDefinitionLike> = {
  [Definition in Definitions as Definition['type']]: Definition['dataClass'] extends abstract new (...args: never[]) => infer Data
    ? ActionData<Data>
    : never;
};
