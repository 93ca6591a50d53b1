/** Every error Punctual answers a caller for; the API maps each code to one answer, whatever the door. */
export enum ErrorCode {
  ActionNotFound = 'ACTION_NOT_FOUND',
  WebhookNotFound = 'WEBHOOK_NOT_FOUND',
  DeliveryNotFound = 'DELIVERY_NOT_FOUND',
  DeliveryPending = 'DELIVERY_PENDING',
  CalendarNotFound = 'CALENDAR_NOT_FOUND',
  CalendarInUse = 'CALENDAR_IN_USE',
  TenantNotFound = 'TENANT_NOT_FOUND',
  TenantExists = 'TENANT_EXISTS',
  ApiKeyNotFound = 'API_KEY_NOT_FOUND',
  ApiKeyConfigured = 'API_KEY_CONFIGURED',
  SecretKeyNotConfigured = 'SECRET_KEY_NOT_CONFIGURED',
  QuotaExceeded = 'QUOTA_EXCEEDED',
  TransitionRefused = 'TRANSITION_REFUSED',
  TooManySubscriptions = 'TOO_MANY_SUBSCRIPTIONS',
  InvalidChange = 'INVALID_CHANGE',
  InvalidRequest = 'INVALID_REQUEST',
  InvalidActionData = 'INVALID_ACTION_DATA',
  UnknownActionType = 'UNKNOWN_ACTION_TYPE',
  InvalidConsoleInput = 'INVALID_CONSOLE_INPUT',
  IdempotencyKeyReused = 'IDEMPOTENCY_KEY_REUSED',
  SignatureRefused = 'SIGNATURE_REFUSED',
  CsrfRefused = 'CSRF_REFUSED',
  WebhooksNotConfigured = 'WEBHOOKS_NOT_CONFIGURED',
  /** Postgres is unreachable. */
  StoreUnavailable = 'STORE_UNAVAILABLE',
  /** A statement ran past the statement timeout and was cancelled. */
  StoreTimedOut = 'STORE_TIMED_OUT',
}

/** An error with an answer for the caller: its code, never its class, decides which. */
export abstract class PunctualDomainError extends Error {
  abstract readonly code: ErrorCode;
}
