import { Attributes, Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  Sampler,
  SimpleSpanProcessor,
  SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { IncomingHttpHeaders } from 'node:http';
import { PunctualConfig, TraceSampling } from '@app/config';

/** Span attributes that tie a trace to an action. */
export const ACTION_ID = 'punctual.action.id';
export const ACTION_TYPE = 'punctual.action.type';
export const OCCURRENCE = 'punctual.action.occurrence';
export const ATTEMPT = 'punctual.action.attempt';
/** How the attempt ended, as `punctual_attempts_total` counts it. */
export const OUTCOME = 'punctual.outcome';

const tracer = () => trace.getTracer('punctual');
let provider: TracerProvider | undefined;

/** Every span is recorded unless OTEL_TRACES_SAMPLER says otherwise. */
const RECORD_ALL: TraceSampling = { sampler: 'parentbased_always_on', ratio: 1 };

/**
 * Records spans in this process and sends them to `exporter`: batched in production, one by one
 * when a test reads them back at once. Keeps the active span in AsyncLocalStorage, so spans nest
 * across awaits, and registers the W3C trace-context (and baggage) propagator that BullMQ's
 * telemetry uses to carry a trace from the producer into the job.
 */
export function registerTracing(serviceName: string, exporter: SpanExporter, batched = true, sampling = RECORD_ALL): TracerProvider {
  provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    sampler: samplerOf(sampling),
    spanProcessors: [batched ? new BatchSpanProcessor({ exporter }) : new SimpleSpanProcessor({ exporter })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(provider);
  return provider;
}

/** Exports to the OTLP/HTTP collector of OTEL_EXPORTER_OTLP_ENDPOINT; without one, tracing stays off and spans cost nothing. */
export function startTracing(config: PunctualConfig, serviceName: string): void {
  if (!config.tracing.otlpEndpoint) return;
  const exporter = new OTLPTraceExporter({ url: `${config.tracing.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` });
  registerTracing(serviceName, exporter, true, config.tracing.sampling);
}

/** The sampler OpenTelemetry's standard OTEL_TRACES_SAMPLER value names, with OTEL_TRACES_SAMPLER_ARG as its ratio. */
function samplerOf({ sampler, ratio }: TraceSampling): Sampler {
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
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
