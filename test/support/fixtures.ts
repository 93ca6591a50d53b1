import { DataSource } from 'typeorm';

/** The contract's SEND_NOTIFICATION example, due `inMs` from now. */
export function notificationExample(inMs = 3_600_000, overrides: Record<string, unknown> = {}) {
  return {
    action: 'SEND_NOTIFICATION',
    executionTime: new Date(Date.now() + inMs).toISOString(),
    data: { mobile: '60123456789', subject: 'Test', name: 'Joojo', templateType: 'USER_LATE_PAYMENT_NOTIFICATION', notificationType: 'SMS' },
    metadata: {},
    repeat: true,
    frequency: 'DAILY',
    executionRemainder: 5,
    ...overrides,
  };
}

/** A one-off HTTP_REQUEST due `inMs` from now. */
export function httpRequestExample(inMs = 3_600_000, overrides: Record<string, unknown> = {}) {
  return {
    action: 'HTTP_REQUEST',
    executionTime: Date.now() + inMs,
    data: { url: 'http://127.0.0.1:9/hook', method: 'POST', body: { hello: 'world' } },
    ...overrides,
  };
}

/** Row counts that every rejected request must leave unchanged. */
export async function storedCounts(db: DataSource): Promise<{ actions: number; history: number; keys: number }> {
  const [row] = await db.query(
    `SELECT (SELECT count(*) FROM actions)::int AS actions, (SELECT count(*) FROM action_history)::int AS history,
            (SELECT count(*) FROM idempotency_keys)::int AS keys`,
  );
  return row;
}

export async function emptyTables(db: DataSource): Promise<void> {
  await db.query(
    'TRUNCATE actions, action_history, idempotency_keys, webhook_subscriptions, webhook_events, webhook_deliveries, calendar_dates, calendars, api_keys',
  );
}

/** An error body's message (a string or a list of them) as one string to match against. */
export function messageText(body: { message?: string | string[] }): string {
  return ([] as string[]).concat(body.message ?? []).join('\n');
}
