/** The billing app's own settings; a sibling app brings its own configuration, this is the example's. */
export interface BillingConfig {
  /** HTTP port of the billing app. */
  port: number;
  /** Where Punctual serves its message patterns (its `RPC_TRANSPORT_URL`). */
  punctualUrl: string;
  /** Where this app listens for messages; Punctual must list it in `MESSAGE_TRANSPORTS` under `transportName`. */
  listenUrl: string;
  /** The name of `listenUrl` in Punctual's `MESSAGE_TRANSPORTS`. */
  transportName: string;
  keyId: string;
  secret: string;
  /** The Punctual tenant of `keyId`: a message from any other tenant is refused. */
  tenant: string;
  /**
   * The secrets a message may be signed with: the key that set the action's data (`secret`, for
   * the actions this app schedules), and the tenant's other keys, one of which signs once that key is gone.
   */
  messageSecrets: string[];
}

/** Provides the `BillingConfig` to the app's services. */
export const BILLING_CONFIG = Symbol('BILLING_CONFIG');

export function billingConfig(env: NodeJS.ProcessEnv = process.env): BillingConfig {
  const punctualUrl = env.PUNCTUAL_RPC_URL ?? 'redis://127.0.0.1:6379';
  const [keyId, secret] = (env.PUNCTUAL_API_KEY ?? 'dev:dev-secret-change-me').split(/:(.*)/s);
  return {
    port: Number(env.BILLING_PORT ?? 4100),
    punctualUrl,
    listenUrl: env.BILLING_LISTEN_URL ?? punctualUrl,
    transportName: env.BILLING_TRANSPORT ?? 'default',
    keyId,
    secret,
    tenant: env.PUNCTUAL_TENANT ?? 'default',
    messageSecrets: [secret, ...(env.PUNCTUAL_MESSAGE_SECRETS ?? '').split(',').filter(Boolean)],
  };
}
