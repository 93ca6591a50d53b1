import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { PunctualConfig } from '@app/config';
import { ActionFulfillment, Fulfillment, FulfillmentResult } from '@punctual/sdk';
import { HTTP_REQUEST, SEND_NOTIFICATION } from '@app/built-in-actions';
import { ActionTypeRegistry } from '@app/action-types';
import { FulfillmentRegistry } from './fulfillment.registry';

@Fulfillment(HTTP_REQUEST)
class FirstHttp implements ActionFulfillment {
  async fulfill(): Promise<FulfillmentResult> {
    return {};
  }
}

@Fulfillment(HTTP_REQUEST)
class SecondHttp extends FirstHttp {}

@Fulfillment(SEND_NOTIFICATION, { maxRetries: 7 })
class Notify extends FirstHttp {}

async function boot(fulfillments: (typeof FirstHttp)[], actions: string[] | null = null): Promise<FulfillmentRegistry> {
  @Module({
    imports: [DiscoveryModule],
    providers: [
      ...fulfillments,
      FulfillmentRegistry,
      { provide: PunctualConfig, useValue: { worker: { actions } } },
      { provide: ActionTypeRegistry, useValue: new ActionTypeRegistry([HTTP_REQUEST, SEND_NOTIFICATION]) },
    ],
  })
  class Host {}
  const moduleRef = await Test.createTestingModule({ imports: [Host] }).compile();
  await moduleRef.init();
  return moduleRef.get(FulfillmentRegistry);
}

describe('FulfillmentRegistry', () => {
  it('finds every @Fulfillment provider with its options', async () => {
    const registry = await boot([FirstHttp, Notify]);
    expect(registry.servedTypes()).toEqual(['HTTP_REQUEST', 'SEND_NOTIFICATION']);
    expect(registry.get('HTTP_REQUEST')!.fulfillment).toBeInstanceOf(FirstHttp);
    expect(registry.get('SEND_NOTIFICATION')!.metadata.options).toEqual({ maxRetries: 7 });
    expect(registry.get('FAX')).toBeUndefined();
  });

  it('serves only WORKER_ACTIONS when set', async () => {
    expect((await boot([FirstHttp], ['HTTP_REQUEST'])).servedTypes()).toEqual(['HTTP_REQUEST']);
  });

  it('refuses two fulfillments for one type', async () => {
    await expect(boot([FirstHttp, SecondHttp, Notify])).rejects.toThrow('Two fulfillments for action type HTTP_REQUEST: FirstHttp and SecondHttp');
  });

  it('refuses a served type without a fulfillment, naming the decorator to add', async () => {
    await expect(boot([FirstHttp])).rejects.toThrow(
      'Action type SEND_NOTIFICATION has no fulfillment in this worker: add a provider decorated with @Fulfillment(SEND_NOTIFICATION)',
    );
  });

  it('refuses an unknown type in WORKER_ACTIONS', async () => {
    await expect(boot([FirstHttp, Notify], ['FAX'])).rejects.toThrow(
      'WORKER_ACTIONS names FAX, which is not a known action type (known: HTTP_REQUEST, SEND_NOTIFICATION)',
    );
  });
});
