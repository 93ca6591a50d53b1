import { Module } from '@nestjs/common';
import { CountCompactionLoop } from './count-compaction.loop';
import { OverdueGaugeLoop } from './overdue-gauge.loop';
import { PromotionLoop } from './promotion.loop';
import { RetentionLoop } from './retention.loop';

/** The worker's periodic jobs: promoting actions into the queues, the retention purge, folding the action counts, and the overdue gauge. */
@Module({ providers: [PromotionLoop, RetentionLoop, CountCompactionLoop, OverdueGaugeLoop] })
export class HousekeepingModule {}
