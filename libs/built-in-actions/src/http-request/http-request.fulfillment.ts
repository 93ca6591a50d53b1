import { Clock } from '@app/domain';
import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, PermanentFulfillmentError, RetryLaterError } from '@punctual/sdk';
import { OutboundClient, OutboundError, OutboundResponse, PermanentOutboundError } from '@app/outbound';
import { bodyExcerpt, hostOf } from './call-note';
import { HttpRequestData } from './http-request.data';
import { HTTP_REQUEST } from './http-request.type';
import { RETRY_AFTER_STATUSES, retryAfterOf } from './retry-after';
import { reservedHeaderReason } from './sendable-headers.validator';

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Calls the action's URL through the outbound client, signed by the attempt's `context.sign` (the
 * secret of the API key that last set the action's data, or the tenant's oldest remaining key). 2xx is success; any other status (3xx included: redirects are not followed), a
 * network error, a timeout or an answer over 1 MiB is retried; a destination that the egress
 * policy refuses fails the action at once. A 429 or 503 with `Retry-After` (seconds or an HTTP
 * date) is retried after the delay it asks for (`RetryLaterError`, at most a day) instead of the
 * backoff. Notes name the status and the host, never the URL or a header value (`call-note.ts`).
 */
@Fulfillment(HTTP_REQUEST)
export class HttpRequestFulfillment implements ActionFulfillment<HttpRequestData> {
  constructor(
    private readonly client: OutboundClient,
    private readonly clock: Clock,
  ) {}

  async fulfill(data: HttpRequestData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const method = data.method ?? 'POST';
    const body = method === 'GET' || data.body === undefined ? undefined : typeof data.body === 'string' ? data.body : JSON.stringify(data.body);
    const signature = await context.sign(body ?? '');
    const ownHeaders = clientHeaders(data.headers);
    const headers: Record<string, string> = { ...ownHeaders, 'Idempotency-Key': context.idempotencyKey, ...signature };
    const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    if (body !== undefined && typeof data.body !== 'string' && !hasContentType) headers['content-type'] = 'application/json';

    const host = hostOf(data.url);
    let response: OutboundResponse;
    try {
      response = await this.client.send({ url: data.url, method, headers, body, timeoutMs: data.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: context.signal });
    } catch (error) {
      if (error instanceof PermanentOutboundError) throw new PermanentFulfillmentError(`HTTP_REQUEST to ${host} ${error.message}`, { cause: error });
      if (error instanceof OutboundError) throw new Error(`HTTP_REQUEST to ${host} ${error.message}`, { cause: error });
      throw error;
    }
    const excerpt = bodyExcerpt(response.body, data.url, [...Object.values(ownHeaders), signature['webhook-signature']]);
    const note = `HTTP ${response.status}: ${excerpt}`;
    if (response.status >= 300 && response.status < 400) throw new Error(`${note} (from ${host}; redirects are not followed)`);
    const retryAfterMs = RETRY_AFTER_STATUSES.has(response.status) ? retryAfterOf(response.headers['retry-after'], this.clock.now()) : null;
    if (retryAfterMs !== null) throw new RetryLaterError(retryAfterMs, `${note} (from ${host})`);
    if (response.status < 200 || response.status >= 300) throw new Error(`${note} (from ${host})`);
    return { note };
  }
}

/** The action's own headers, without any it may not set (rows stored before those were refused at create). */
function clientHeaders(headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => reservedHeaderReason(name) === null));
}
