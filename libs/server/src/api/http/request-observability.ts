import { INestApplication } from '@nestjs/common';
import { Span, SpanStatusCode } from '@opentelemetry/api';
import { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { PunctualConfig } from '@app/config';
import { FieldLogger, PunctualMetrics, inServerSpan, tracingEnabled } from '@app/observability';
import { VerifiedRequest } from '@app/signature';

/** A caller's request id is kept only when it is safe to echo in a header and to log. */
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Probes and scrapes come every few seconds: their access lines are at debug, the rest at log. */
const PROBE = /^\/(health|metrics)(\/|$)/;
/** nginx's code for a request whose client went away before the answer was sent. */
const CLIENT_CLOSED = 499;

/**
 * The first middleware of the API, so that every request is counted and logged, even one the body
 * parsers refuse: gives it a request id (the caller's `X-Request-Id`, or a new one), echoed in the
 * response; a server span when tracing is on; and when it ends, one access-log line (method, route
 * template, status, duration, key id, request id) and one observation of
 * `punctual_http_request_duration_seconds`.
 */
export function useRequestObservability(app: INestApplication): void {
  const metrics = app.get(PunctualMetrics);
  const config = app.get(PunctualConfig);
  const traced = tracingEnabled();

  app.use((req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const header = req.headers['x-request-id'];
    const requestId = typeof header === 'string' && CALLER_REQUEST_ID.test(header) ? header : randomUUID();
    res.setHeader('X-Request-Id', requestId);

    const handle = (span?: Span) => {
      res.once('close', () => {
        const route = routeTemplate(req);
        const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED;
        const durationMs = performance.now() - started;
        metrics.httpRequest(req.method, route, status, durationMs / 1000);
        if (span) endServerSpan(span, req.method, route, status);
        const keyId = (req as VerifiedRequest).punctualKey?.keyId ?? null;
        const access = { requestId, method: req.method, route, status, durationMs: Math.round(durationMs * 10) / 10, keyId };
        const text = `${access.method} ${route} ${status} ${access.durationMs} ms key ${keyId ?? '-'} request ${requestId}`;
        FieldLogger.for(config, 'Http', access)[PROBE.test(req.path) ? 'debug' : 'log'](config.logFormat === 'json' ? 'request completed' : text);
      });
      next();
    };
    if (traced) inServerSpan(req.method, req.headers, handle);
    else handle();
  });
}

/**
 * The route a request matched, as declared (`/actions/:id`), never the raw path: metric labels
 * must stay few. Requests no route matched share one label.
 */
function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  return req.baseUrl ? `${req.baseUrl}/*` : 'unmatched';
}

function endServerSpan(span: Span, method: string, route: string, status: number): void {
  span.updateName(`${method} ${route}`);
  span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
