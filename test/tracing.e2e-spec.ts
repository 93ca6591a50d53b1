import { INestApplicationContext } from '@nestjs/common';
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan, TracerProvider } from '@opentelemetry/sdk-trace';
import { ACTION_ID, registerTracing } from '@app/observability';
import { HttpReceiver, testHttp, waitUntil } from '@app/testing';
import { ApiTestApp, startCleanApiApp } from './support/api-test-app';
import { API_READY, AppProcess } from './support/app-process';
import { freePort } from './support/free-port';
import { startWorker } from './support/worker-test-app';

/** Spans of this process go to memory; the apps see a registered tracer, as with OTEL_EXPORTER_OTLP_ENDPOINT set. */
describe('Traces across API → queue → worker', () => {
  const exporter = new InMemorySpanExporter();
  const receiver = new HttpReceiver();
  let provider: TracerProvider;
  let api: ApiTestApp;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    provider = registerTracing('punctual-test', exporter, false);
    await receiver.start();
    api = await startCleanApiApp();
    worker = await startWorker();
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
    await receiver.stop();
    await provider.shutdown();
    // The tracer is global to the process: later spec files must not record into this one.
    trace.disable();
    context.disable();
    propagation.disable();
  });

  const spans = () => exporter.getFinishedSpans();
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  it('one create-and-run is one connected trace: the request, the queued job, its claim, fulfillment and outcome', async () => {
    const created = await api.client.post('/actions', { action: 'HTTP_REQUEST', executionTime: Date.now(), data: { url: receiver.url('/traced') } });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    // The job's consumer span ends last, after the outcome span inside it: wait for both.
    await waitUntil(
      'the outcome span and the job span around it',
      () => {
        const record = spans().find((span) => span.name === 'punctual.record' && span.attributes[ACTION_ID] === id);
        return record && spans().some((span) => span.spanContext().spanId === parentOf(record));
      },
      15_000,
    );

    const request = spans().find((span) => span.name === 'POST /actions' && span.attributes[ACTION_ID] === id)!;
    expect(request).toBeDefined();
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes).toMatchObject({ 'http.route': '/actions', 'http.response.status_code': 201 });
    const inTrace = spans().filter((span) => span.spanContext().traceId === request.spanContext().traceId);
    const named = (name: string) => {
      const found = inTrace.filter((span) => span.name === name);
      expect(found).toHaveLength(1);
      return found[0];
    };

    const queued = named('addBulk HTTP_REQUEST');
    const processed = named('process HTTP_REQUEST');
    expect(queued.kind).toBe(SpanKind.PRODUCER);
    expect(processed.kind).toBe(SpanKind.CONSUMER);
    expect(parentOf(queued)).toBe(request.spanContext().spanId);
    expect(parentOf(processed)).toBe(queued.spanContext().spanId);
    for (const step of ['punctual.claim', 'punctual.fulfill', 'punctual.record']) {
      const span = named(step);
      expect(parentOf(span)).toBe(processed.spanContext().spanId);
      expect(span.attributes[ACTION_ID]).toBe(id);
    }
    expect(named('punctual.fulfill').attributes).toMatchObject({
      'punctual.action.type': 'HTTP_REQUEST',
      'punctual.action.occurrence': 1,
      'punctual.action.attempt': 1,
    });
    expect(named('punctual.record').attributes['punctual.outcome']).toBe('succeeded');
  });

  it("a request that carries a traceparent continues the caller's trace", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await api.client.get('/actions/stats', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    await waitUntil('the stats span', () => spans().some((span) => span.name === 'GET /actions/stats'));
    const span = spans().find((candidate) => candidate.name === 'GET /actions/stats')!;
    expect(span.spanContext().traceId).toBe(traceId);
    expect(parentOf(span)).toBe('00f067aa0ba902b7');
  });

  it('a real API process sends its spans to the OTLP/HTTP collector named by OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    const collector = await new HttpReceiver().start();
    const port = await freePort();
    const child = await new AppProcess('api', { PORT: port, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url('/otlp') }).ready(API_READY);
    try {
      expect((await testHttp(`http://127.0.0.1:${port}`).get('/actions/stats')).status).toBe(200);
      child.kill('SIGTERM'); // a stopping process sends what it has buffered
      expect(await child.exited).toEqual({ code: 0, signal: null });
      const [exported] = collector.callsTo('/otlp/v1/traces');
      expect(exported.headers['content-type']).toMatch(/^application\/json/);
      expect(exported.body).toContain('"punctual-api"');
      expect(exported.body).toContain('"GET /actions/stats"');
    } finally {
      child.kill('SIGKILL');
      await collector.stop();
    }
  });

  it('a real API process records only the traces OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG keep', async () => {
    const collector = await new HttpReceiver().start();
    const port = await freePort();
    const env = { PORT: port, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url('/otlp'), OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' };
    const child = await new AppProcess('api', env).ready(API_READY);
    try {
      // Even a caller's sampled trace: the ratio sampler decides alone, and keeps none of them.
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      expect((await testHttp(`http://127.0.0.1:${port}`).get('/actions/stats', { headers: { traceparent } })).status).toBe(200);
      child.kill('SIGTERM'); // a stopping process sends what it has buffered: here, nothing
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(collector.callsTo('/otlp/v1/traces')).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await collector.stop();
    }
  });
});
