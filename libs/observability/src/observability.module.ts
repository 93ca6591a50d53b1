import { DynamicModule, Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { METRICS_ACTION_TYPES, PunctualMetrics } from './metrics/punctual-metrics';
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
@Module({})
export class ObservabilityModule {
  /** @param actionTypes the names of the action types whose series exist from the start, at 0. */
  static forRoot(actionTypes: readonly string[]): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [{ provide: METRICS_ACTION_TYPES, useValue: actionTypes }, PunctualMetrics, TracingFlush],
      exports: [PunctualMetrics],
    };
  }
}
