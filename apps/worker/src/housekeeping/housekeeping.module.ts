import { Module } from '@nestjs/common';
import { PromotionLoop } from './promotion.loop';
import { RetentionLoop } from './retention.loop';

/** The worker's periodic jobs: promoting actions into the queues, and the retention purge. */
@Module({ providers: [PromotionLoop, RetentionLoop] })
export class HousekeepingModule {}
