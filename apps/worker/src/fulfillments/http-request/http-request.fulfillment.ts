import { ActionFulfillment, Fulfillment, FulfillmentContext, FulfillmentResult, HTTP_REQUEST, HttpRequestData } from '@app/fulfillment';

const DEFAULT_TIMEOUT_MS = 10_000;
const NOTE_BODY_LIMIT = 1024;

/** Calls the action's URL. 2xx is success; any other status, a network error or a timeout is retried. */
@Fulfillment(HTTP_REQUEST)
export class HttpRequestFulfillment implements ActionFulfillment<HttpRequestData> {
  async fulfill(data: HttpRequestData, context: FulfillmentContext): Promise<FulfillmentResult> {
    const method = data.method ?? 'POST';
    const timeoutMs = data.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const headers: Record<string, string> = { ...data.headers, 'Idempotency-Key': context.idempotencyKey };
    let body: string | undefined;
    if (method !== 'GET' && data.body !== undefined) {
      body = typeof data.body === 'string' ? data.body : JSON.stringify(data.body);
      const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
      if (typeof data.body !== 'string' && !hasContentType) headers['content-type'] = 'application/json';
    }
    let response: Response;
    let text: string;
    try {
      response = await fetch(data.url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
      text = await response.text();
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : describeNetworkError(error as Error);
      throw new Error(`HTTP_REQUEST to ${data.url} ${reason}`);
    }
    const note = `HTTP ${response.status}: ${text.slice(0, NOTE_BODY_LIMIT)}`;
    if (!response.ok) throw new Error(`${note} (from ${method} ${data.url})`);
    return { note };
  }
}

function describeNetworkError(error: Error): string {
  const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
  return `failed: ${cause?.code ?? cause?.message ?? error.message}`;
}
