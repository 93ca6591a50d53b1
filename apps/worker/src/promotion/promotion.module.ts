import { Module } from '@nestjs/common';
import { PromotionLoop } from './promotion.loop';

@Module({ providers: [PromotionLoop] })
export class PromotionModule {}
