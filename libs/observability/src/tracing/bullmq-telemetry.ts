import { BullMQOtel } from 'bullmq-otel';
import { Telemetry } from 'bullmq';
import { tracingEnabled } from './tracing';

/**
 * BullMQ's own OpenTelemetry integration for a queue or worker, when this process traces: the
 * producer's span context travels inside the job, so the worker's processing joins the trace of
 * the request that queued it. Undefined otherwise, so an untraced job carries nothing extra.
 */
export function bullmqTelemetry(): Telemetry | undefined {
  return tracingEnabled() ? new BullMQOtel({ tracerName: 'punctual' }) : undefined;
}
