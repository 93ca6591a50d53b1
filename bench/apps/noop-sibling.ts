import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, MicroserviceOptions } from '@nestjs/microservices';
import { microserviceOptions } from '@punctual/client';

/** The pattern the no-op sibling answers; MESSAGE actions of the benchmark send it. */
export const NOOP_PATTERN = 'punctual-bench.noop';

@Controller()
class NoopSiblingController {
  @MessagePattern(NOOP_PATTERN)
  handle(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [NoopSiblingController] })
class NoopSiblingModule {}

/** A sibling app that answers every message at once, so the benchmark measures MESSAGE's own cost. */
export async function startNoopSibling(transportUrl: string): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(NoopSiblingModule, {
    ...(microserviceOptions(transportUrl) as MicroserviceOptions),
    logger: false,
  });
  await app.listen();
  return app;
}
