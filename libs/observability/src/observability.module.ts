import { DynamicModule, Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { METRICS_ACTION_TYPES, METRICS_PROCESS, MetricsProcess, PunctualMetrics } from './metrics/punctual-metrics';
import { flushTracing } from './tracing/tracing';

/** Sends buffered spans before the process exits. */
@Injectable()
class TracingFlush implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return flushTracing();
  }
}

/** The metrics of a process, as its kind counts them; imported once by each app's root module. */
@Global()
@Module({})
export class ObservabilityModule {
  /**
   * @param actionTypes the names of the action types whose series exist from the start, at 0.
   * @param process the kind of process: it exports only the series that kind counts.
   */
  static forRoot(actionTypes: readonly string[], process: MetricsProcess): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [
        { provide: METRICS_ACTION_TYPES, useValue: actionTypes },
        { provide: METRICS_PROCESS, useValue: process },
        PunctualMetrics,
        TracingFlush,
      ],
      exports: [PunctualMetrics],
    };
  }
}
