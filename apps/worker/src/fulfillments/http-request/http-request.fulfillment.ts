import { PunctualConfig } from '@app/config';
import { Clock } from '@app/domain';
import {
  ActionFulfillment,
  Fulfillment,
  FulfillmentContext,
  FulfillmentResult,
  HEADERS_SET_BY_PUNCTUAL,
  HTTP_REQUEST,
  HttpRequestData,
  PermanentFulfillmentError,
} from '@app/fulfillment';
import { OutboundClient, OutboundError, OutboundResponse, PermanentOutboundError, standardWebhookHeaders, webhookTimestamp } from '@app/outbound';

const DEFAULT_TIMEOUT_MS = 10_000;
const NOTE_BODY_BYTES = 1024;

/**
 * Calls the action's URL through the outbound client, signed with the creating API key's
 * secret. 2xx is success; any other status (3xx included: redirects are not followed), a
 * network error, a timeout or an answer over 1 MiB is retried; a destination that the egress
 * policy refuses fails the action at once.
 */
@Fulfillment(HTTP_REQUEST)
export class HttpRequestFulfillment implements ActionFulfillment<HttpRequestData> {
  constructor(
    private readonly client: OutboundClient,
    private readonly config: PunctualConfig,
    private readonly clock: Clock,
  ) {}

  async fulfill(data: HttpRequestData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const method = data.method ?? 'POST';
    const body = method === 'GET' || data.body === undefined ? undefined : typeof data.body === 'string' ? data.body : JSON.stringify(data.body);
    const { headers: signature, unsignedBecause } = this.signatureHeaders(context, body ?? '');
    const headers: Record<string, string> = { ...clientHeaders(data.headers), 'Idempotency-Key': context.idempotencyKey, ...signature };
    const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    if (body !== undefined && typeof data.body !== 'string' && !hasContentType) headers['content-type'] = 'application/json';

    let response: OutboundResponse;
    try {
      response = await this.client.send({ url: data.url, method, headers, body, timeoutMs: data.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: context.signal });
    } catch (error) {
      if (error instanceof PermanentOutboundError) throw new PermanentFulfillmentError(`HTTP_REQUEST to ${data.url} ${error.message}`);
      if (error instanceof OutboundError) throw new Error(`HTTP_REQUEST to ${data.url} ${error.message}`);
      throw error;
    }
    const note = `HTTP ${response.status}: ${response.body.subarray(0, NOTE_BODY_BYTES).toString('utf8')}`;
    if (response.status >= 300 && response.status < 400) throw new Error(`${note} (from ${method} ${data.url}; redirects are not followed)`);
    if (response.status < 200 || response.status >= 300) throw new Error(`${note} (from ${method} ${data.url})`);
    return { note: unsignedBecause ? `${note} (sent unsigned: ${unsignedBecause})` : note };
  }

  /**
   * Standard Webhooks headers keyed with the secret of the API key that created the action.
   * When that key is unknown (an action stored before keys were recorded) or no longer in
   * `API_KEYS` (rotated out), the call still goes out, without `webhook-signature`: failing
   * every scheduled action of a retired key would make rotation destructive, and a receiver
   * that checks signatures rejects an unsigned call anyway, which shows in the history.
   */
  private signatureHeaders(context: FulfillmentContext, body: string): { headers: Record<string, string>; unsignedBecause: string | null } {
    const message = { id: context.idempotencyKey, timestamp: this.clock.now(), body };
    const secret = context.apiKeyId === null ? undefined : this.config.auth.apiKeys.get(context.apiKeyId);
    if (secret !== undefined) return { headers: { ...standardWebhookHeaders(message, Buffer.from(secret, 'utf8')) }, unsignedBecause: null };
    const unsignedBecause = context.apiKeyId === null ? 'the action records no API key' : `API key ${context.apiKeyId} is no longer configured`;
    context.logger.warn(`Calling without a signature: ${unsignedBecause}`);
    return { headers: { 'webhook-id': message.id, 'webhook-timestamp': webhookTimestamp(message.timestamp) }, unsignedBecause };
  }
}

/** The action's own headers, without any that Punctual sets (rows stored before those were refused at create). */
function clientHeaders(headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HEADERS_SET_BY_PUNCTUAL.includes(name.toLowerCase())));
}
