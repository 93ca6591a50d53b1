import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { PunctualConfig } from '@app/config';
import { ActionFulfillment, FULFILLMENT_METADATA, FulfillmentMetadata } from '@punctual/sdk';
import { ActionTypeRegistry } from '@app/action-types';

export interface RegisteredFulfillment {
  readonly fulfillment: ActionFulfillment;
  readonly metadata: FulfillmentMetadata;
}

/**
 * The fulfillments of this worker, found through `@Fulfillment(…)` at boot. Fails fast on
 * two fulfillments for one type, or a served type without one.
 */
@Injectable()
export class FulfillmentRegistry implements OnModuleInit {
  private readonly byType = new Map<string, RegisteredFulfillment>();
  /** Known from the configuration alone, so that other providers may declare it before the fulfillments are found. */
  private readonly served: readonly string[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly types: ActionTypeRegistry,
    config: PunctualConfig,
  ) {
    this.served = config.worker.actions ? [...config.worker.actions] : types.types();
  }

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const found = wrapper.metatype ? (Reflect.getMetadata(FULFILLMENT_METADATA, wrapper.metatype) as FulfillmentMetadata | undefined) : undefined;
      if (!found || !wrapper.instance) continue;
      const type = found.definition.type;
      if (this.byType.has(type)) {
        throw new Error(`Two fulfillments for action type ${type}: ${this.byType.get(type)!.fulfillment.constructor.name} and ${wrapper.metatype!.name}`);
      }
      this.byType.set(type, { fulfillment: wrapper.instance as ActionFulfillment, metadata: found });
    }
    for (const type of this.served) {
      if (!this.types.has(type)) {
        throw new Error(`WORKER_ACTIONS names ${type}, which is not a known action type (known: ${this.types.types().join(', ')})`);
      }
      if (!this.byType.has(type)) {
        throw new Error(
          `Action type ${type} has no fulfillment in this worker: add a provider decorated with @Fulfillment(${type}) to a module the worker imports`,
        );
      }
    }
  }

  /** Types this worker consumes. */
  servedTypes(): readonly string[] {
    return this.served;
  }

  get(type: string): RegisteredFulfillment | undefined {
    return this.byType.get(type);
  }
}
