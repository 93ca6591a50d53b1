import { Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { PunctualMetrics } from './metrics/punctual-metrics';
import { flushTracing } from './tracing/tracing';

/** Sends buffered spans before the process exits. */
@Injectable()
class TracingFlush implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return flushTracing();
  }
}

/** The metrics every process registers (API and workers alike); imported once by each app's root module. */
@Global()
@Module({
  providers: [PunctualMetrics, TracingFlush],
  exports: [PunctualMetrics],
})
export class ObservabilityModule {}
