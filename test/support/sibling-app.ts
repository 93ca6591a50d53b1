import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern, MicroserviceOptions, Payload, RpcException } from '@nestjs/microservices';
import { microserviceOptions } from '@punctual/client';

export interface SiblingBehaviour {
  /** What the handler answers; throw to answer with an error. */
  reply(data: unknown): unknown;
}

/**
 * A sibling NestJS microservice on a real transport that handles one message pattern and one
 * event pattern, and records what reached it.
 */
export class SiblingApp {
  readonly received: { pattern: string; data: Record<string, unknown> }[] = [];
  private app?: INestMicroservice;

  constructor(
    private readonly transportUrl: string,
    readonly pattern: string,
    readonly eventPattern: string,
    private readonly behaviour: SiblingBehaviour = { reply: () => ({ ok: true }) },
  ) {}

  async start(): Promise<this> {
    const { pattern, eventPattern, received, behaviour } = this;
    @Controller()
    class SiblingController {
      @MessagePattern(pattern)
      handle(@Payload() data: Record<string, unknown>): unknown {
        received.push({ pattern, data });
        try {
          return behaviour.reply(data);
        } catch (error) {
          throw new RpcException((error as Error).message);
        }
      }

      @EventPattern<Record<string, Record<string, unknown>>>(eventPattern)
      event(@Payload() data: Record<string, unknown>): void {
        received.push({ pattern: eventPattern, data });
      }
    }
    @Module({ controllers: [SiblingController] })
    class SiblingModule {}
    this.app = await NestFactory.createMicroservice<MicroserviceOptions>(SiblingModule, {
      ...(microserviceOptions(this.transportUrl) as MicroserviceOptions),
      logger: false,
    });
    await this.app.listen();
    return this;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    this.app = undefined;
  }
}
