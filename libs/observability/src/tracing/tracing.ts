import { Attributes, Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { IncomingHttpHeaders } from 'node:http';
import { PunctualConfig } from '@app/config';

/** Span attributes that tie a trace to an action. */
export const ACTION_ID = 'punctual.action.id';
export const ACTION_TYPE = 'punctual.action.type';
export const OCCURRENCE = 'punctual.action.occurrence';
export const ATTEMPT = 'punctual.action.attempt';
/** How the attempt ended, as `punctual_attempts_total` counts it. */
export const OUTCOME = 'punctual.outcome';

const tracer = () => trace.getTracer('punctual');
let provider: NodeTracerProvider | undefined;

/**
 * Records spans in this process and sends them to `exporter`: batched in production, one by one
 * when a test reads them back at once. Registers the W3C trace-context propagator that BullMQ's
 * telemetry uses to carry a trace from the producer into the job.
 */
export function registerTracing(serviceName: string, exporter: SpanExporter, batched = true): NodeTracerProvider {
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [batched ? new BatchSpanProcessor(exporter) : new SimpleSpanProcessor(exporter)],
  });
  provider.register();
  return provider;
}

/** Exports to the OTLP/HTTP collector of OTEL_EXPORTER_OTLP_ENDPOINT; without one, tracing stays off and spans cost nothing. */
export function startTracing(config: PunctualConfig, serviceName: string): void {
  if (!config.tracing.otlpEndpoint) return;
  registerTracing(serviceName, new OTLPTraceExporter({ url: `${config.tracing.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` }));
}

/** Whether this process records spans; queues and workers attach BullMQ's telemetry only then. */
export function tracingEnabled(): boolean {
  return provider !== undefined;
}

/** Sends the spans still buffered; a stopping process calls it last. */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

/** Runs `fn` in a child span of the active one; a thrown error marks the span failed and goes on. Just runs it when tracing is off. */
export function inSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  if (!provider) return fn();
  return tracer().startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Adds attributes to the active span, if any (the action id to the request that created it). */
export function annotateActiveSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/**
 * Runs an incoming request's handling in a server span, continuing the caller's trace when its
 * `traceparent` header names one. The caller ends the span when the response is sent.
 */
export function inServerSpan<T>(method: string, headers: IncomingHttpHeaders, fn: (span: Span) => T): T {
  const parent = propagation.extract(context.active(), headers);
  const span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
  return context.with(trace.setSpan(parent, span), () => fn(span));
}
