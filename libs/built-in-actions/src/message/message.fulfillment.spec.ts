import { Test } from '@nestjs/testing';
import { ActionTypesModule } from '@app/action-types';
import { ConfigModule } from '@app/config';
import { DatabaseModule } from '@app/database';
import { Clock } from '@app/domain';
import { KeyRegistry, SigningKeys } from '@app/signature';
import { PermanentFulfillmentError } from '@punctual/sdk';
import { fulfillmentContext } from '@app/testing';
import { MessageTransports } from './message-transports';
import { MESSAGE } from './message.type';
import { MessageFulfillment } from './message.fulfillment';

/** Against the real Redis and Postgres of the test run, with no sibling listening: what a MESSAGE attempt does when no one answers. */
describe('MessageFulfillment (real Redis, no sibling)', () => {
  let fulfillment: MessageFulfillment;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule, DatabaseModule, ActionTypesModule.forRoot([MESSAGE])],
      providers: [KeyRegistry, SigningKeys, Clock, MessageTransports, MessageFulfillment],
    }).compile();
    fulfillment = moduleRef.get(MessageFulfillment);
    close = () => moduleRef.close();
  });
  afterAll(() => close());

  const pattern = `spec.nobody-listens.${process.pid}`;

  it('fails the attempt when no reply comes within timeoutMs', async () => {
    await expect(fulfillment.fulfill({ pattern, timeoutMs: 200 }, fulfillmentContext())).rejects.toThrow(
      `sending ${pattern} on transport "default": no answer within 200 ms`,
    );
  });

  it('stops waiting as soon as the attempt is stopped', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    await expect(fulfillment.fulfill({ pattern, timeoutMs: 10_000 }, fulfillmentContext({ signal: controller.signal }))).rejects.toThrow(
      'the attempt was stopped',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('succeeds an emit once Redis took it, listener or not', async () => {
    await expect(fulfillment.fulfill({ pattern, expectReply: false }, fulfillmentContext())).resolves.toEqual({
      note: `emitted ${pattern} on transport "default"`,
    });
  });

  it('fails for good when the tenant may not send the message (a tenant without a row is allowed nothing)', async () => {
    await expect(fulfillment.fulfill({ pattern, expectReply: false }, fulfillmentContext({ tenantId: 'no-such-tenant' }))).rejects.toThrow(
      new PermanentFulfillmentError(
        `MESSAGE not sent: transport "default" is not allowed for tenant no-such-tenant; an operator allows it in the tenant's messaging`,
      ),
    );
  });

  it('fails for good on a transport no longer configured', async () => {
    await expect(fulfillment.fulfill({ pattern, transport: 'gone' }, fulfillmentContext())).rejects.toThrow(PermanentFulfillmentError);
  });
});
