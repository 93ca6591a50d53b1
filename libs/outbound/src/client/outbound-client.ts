import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent as HttpAgent, ClientRequest, IncomingHttpHeaders, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { LookupFunction } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { AllowedAddresses } from '../egress/allowed-addresses';
import { EgressPolicy } from '../egress/egress-policy';
import { isIpAddress } from '../egress/ip-address';
import { HostResolver } from './host-resolver';
import {
  DestinationNotAllowedError,
  InvalidOutboundRequestError,
  OutboundAbortedError,
  OutboundError,
  OutboundTimeoutError,
  ResponseTooLargeError,
} from './outbound.errors';

/** At most this much of an answer is read; a longer one fails the call. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface OutboundRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The whole exchange, from connecting to the last byte of the answer. */
  readonly timeoutMs: number;
  /** Stops the call when aborted. */
  readonly signal?: AbortSignal;
}

export interface OutboundResponse {
  /** Any status, 3xx included: redirects are never followed. */
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The whole body, at most `MAX_RESPONSE_BYTES`. */
  readonly body: Buffer;
}

/**
 * The one way Punctual calls a URL. It connects only to addresses the egress policy allows,
 * judged on the address actually connected to (after DNS, so neither rebinding nor an odd
 * spelling of an address gets through), never follows a redirect, and reads at most 1 MiB.
 */
@Injectable()
export class OutboundClient implements OnApplicationShutdown {
  // Own agents, so that a kept-alive socket was always opened under this client's policy.
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true });
  private readonly lookup: LookupFunction = (hostName, options, callback) => {
    this.addresses.of(hostName, options.family).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };

  private readonly addresses: AllowedAddresses;

  constructor(
    private readonly policy: EgressPolicy,
    resolver: HostResolver,
  ) {
    this.addresses = new AllowedAddresses(policy, resolver);
  }

  /** Resolves with the answer, whatever its status; rejects with an `OutboundError` when there is no complete answer. */
  async send(request: OutboundRequest): Promise<OutboundResponse> {
    const url = parseTarget(request.url);
    const options = urlToHttpOptions(url);
    const host = options.hostname ?? '';
    // A connection to an IP literal skips the lookup hook, so such a host is judged here.
    const refusal = isIpAddress(host) ? this.policy.refusalOfAddress(host) : null;
    if (refusal) throw new DestinationNotAllowedError(refusal);
    if (request.signal?.aborted) throw new OutboundAbortedError();
    const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
    const https = url.protocol === 'https:';
    let outgoing: ClientRequest;
    try {
      outgoing = (https ? httpsRequest : httpRequest)({
        ...options,
        method: request.method,
        headers,
        agent: https ? this.httpsAgent : this.httpAgent,
        lookup: this.lookup,
      });
    } catch (error) {
      // Node refuses a header name or value it cannot send (CR, LF, NUL…) before connecting.
      throw new InvalidOutboundRequestError((error as Error).message);
    }
    return exchange(outgoing, request);
  }

  /** Last of the shutdown hooks: a stopping worker first lets the calls in flight finish. */
  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function parseTarget(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidOutboundRequestError('the URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidOutboundRequestError(`${url.protocol} URLs are not called`);
  return url;
}

/** Sends the body and reads the answer, within the time limit, the signal and the size limit. */
function exchange(outgoing: ClientRequest, request: OutboundRequest): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => fail(new OutboundTimeoutError(request.timeoutMs)), request.timeoutMs);
    const onAbort = () => fail(new OutboundAbortedError());
    request.signal?.addEventListener('abort', onAbort, { once: true });

    function settle(): boolean {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      return true;
    }
    function fail(error: Error): void {
      if (!settle()) return;
      outgoing.destroy();
      // The code only: Node's messages name the address and port connected to.
      reject(error instanceof OutboundError ? error : new OutboundError(`failed: ${(error as NodeJS.ErrnoException).code ?? 'no answer'}`));
    }

    outgoing.on('error', fail);
    outgoing.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const tooLarge = () => fail(new ResponseTooLargeError(MAX_RESPONSE_BYTES));
      if (Number(response.headers['content-length']) > MAX_RESPONSE_BYTES) return tooLarge();
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) return tooLarge();
        chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('close', () => {
        if (!response.complete) fail(new OutboundError('failed: the answer was cut off'));
      });
      response.on('end', () => {
        if (settle()) resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      });
    });
    outgoing.end(request.body);
  });
}
