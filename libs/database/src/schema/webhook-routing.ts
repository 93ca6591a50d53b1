/**
 * Who receives a lifecycle event: the one place the rule is written. Two triggers on
 * `webhook_events` apply it: the first keeps an event only when someone wants it (a subscription,
 * or the action's `callbackUrl`), the second fans a kept event out into one delivery per receiver,
 * in its event's week. `punctual_webhook_wants` says which subscriptions want an event: the one a
 * test event names, else those of its tenant that listen to its type (and its action type, when
 * they name some).
 *
 * Migrations apply this text (`1763870001960` first); `test/webhook-routing.e2e-spec.ts` holds the
 * database's live definitions to it. A change here therefore needs a new migration that applies it
 * again, or databases already migrated keep the rule as it was.
 */
export const WEBHOOK_ROUTING_FUNCTIONS: readonly string[] = [
  `CREATE OR REPLACE FUNCTION punctual_webhook_wants(s webhook_subscriptions, e webhook_events) RETURNS boolean
  LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN e.subscription_id IS NOT NULL THEN s.id = e.subscription_id
                ELSE s.tenant_id = e.tenant_id AND e.type = ANY (s.events)
                  AND (s.action_types IS NULL OR e.action_type = ANY (s.action_types)) END
  $$`,
  `CREATE OR REPLACE FUNCTION punctual_webhook_event_has_target() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.callback_url IS NOT NULL OR EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE punctual_webhook_wants(s, NEW)) THEN
      RETURN NEW;
    END IF;
    RETURN NULL; -- nobody listens: nothing is stored
  END $$`,
  `CREATE OR REPLACE FUNCTION punctual_webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO webhook_deliveries (event_id, event_created_at, subscription_id, url)
    SELECT NEW.id, NEW.created_at, s.id, s.url FROM webhook_subscriptions s WHERE punctual_webhook_wants(s, NEW);
    IF NEW.callback_url IS NOT NULL THEN
      INSERT INTO webhook_deliveries (event_id, event_created_at, subscription_id, url) VALUES (NEW.id, NEW.created_at, NULL, NEW.callback_url);
    END IF;
    RETURN NULL;
  END $$`,
];

/** The triggers on `webhook_events` that apply the rule, and nothing else is triggered there. */
export const WEBHOOK_ROUTING_TRIGGERS: readonly string[] = [
  'CREATE TRIGGER webhook_events_keep_wanted BEFORE INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION punctual_webhook_event_has_target()',
  'CREATE TRIGGER webhook_events_fan_out AFTER INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION punctual_webhook_fan_out()',
];

/** The statements that make the rule what this file says, whatever definitions were there before. */
export const WEBHOOK_ROUTING_SQL: readonly string[] = [
  ...WEBHOOK_ROUTING_FUNCTIONS,
  'DROP TRIGGER IF EXISTS webhook_events_keep_wanted ON webhook_events',
  'DROP TRIGGER IF EXISTS webhook_events_fan_out ON webhook_events',
  ...WEBHOOK_ROUTING_TRIGGERS,
];
