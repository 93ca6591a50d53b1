import { Logger } from '@nestjs/common';
import { OutgoingResponse, RmqContext, RmqOptions, ServerRMQ } from '@nestjs/microservices';
import type { Channel, ConsumeMessage } from 'amqplib';
import type { ChannelWrapper } from 'amqp-connection-manager';
import { ThrottledWarnings } from './throttled-warnings';

/** Where RabbitMQ's direct reply-to puts replies: only the channel that sent the request reads them. */
const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to.';

/**
 * The RabbitMQ transport's server for any number of API processes. They all consume the one durable
 * queue, which hands each request to one of them; a request stays unacknowledged until its reply
 * is sent, so one whose process dies on it goes to another (the caller's Idempotency-Key keeps a
 * create made twice one action), and each process holds at most `prefetchCount` at a time.
 * A request is answered only on direct reply-to: a reply into a named queue could land in any
 * queue of the vhost (another app's, the API's own), so such a request is dropped unhandled. Any
 * message NestJS cannot take is dropped rather than left to hold a place of the prefetch forever.
 */
export class AckAfterReplyRmqServer extends ServerRMQ {
  private readonly warnings = new ThrottledWarnings(new Logger(AckAfterReplyRmqServer.name));

  constructor(options: Required<RmqOptions>['options']) {
    super({ ...options, noAck: false });
  }

  override async handleMessage(delivered: Record<string, unknown> | null, channel: Channel): Promise<void> {
    if (delivered === null) return;
    const message = delivered as unknown as ConsumeMessage;
    const replyTo: unknown = message.properties.replyTo;
    if (typeof replyTo === 'string' && !replyTo.startsWith(DIRECT_REPLY_TO)) {
      this.warnings.warn(
        'reply-to',
        `Dropped a request that asked for its reply in queue ${JSON.stringify(replyTo)}: Punctual answers only on direct reply-to`,
      );
      channel.nack(message, false, false);
      return;
    }
    try {
      await super.handleMessage(message, channel);
    } catch (error) {
      this.warnings.warn('unhandled', `Dropped a message NestJS could not handle: ${(error as Error).message}`);
      channel.nack(message, false, false);
    }
  }

  /**
   * NestJS's own, but a reply that cannot be published (a channel closed meanwhile) is a warning, not
   * an unhandled rejection; and the last packet of a reply (`isDisposed`) settles the request, sent or not.
   */
  override sendMessage<T>(reply: T, replyTo: unknown, correlationId: string, context: RmqContext): void {
    const packet = reply as OutgoingResponse;
    try {
      // A request that named no reply queue at all has nowhere to be answered (one naming another queue never gets here).
      if (typeof replyTo !== 'string' || !replyTo.startsWith(DIRECT_REPLY_TO)) return;
      const outgoing = this.serializer.serialize(packet) as { options?: object };
      const { options, ...body } = outgoing;
      const sent = (this.channel as ChannelWrapper).sendToQueue(replyTo, Buffer.from(JSON.stringify(body)), { correlationId, ...options });
      sent.catch((error: Error) => this.warnings.warn('reply', `Could not send a reply: ${error.message}`));
    } finally {
      if (packet.isDisposed) (context.getChannelRef() as Channel).ack(context.getMessage() as ConsumeMessage);
    }
  }
}
