import { Module } from '@nestjs/common';
import { HttpRequestFulfillment } from './http-request.fulfillment';

@Module({ providers: [HttpRequestFulfillment] })
export class HttpRequestModule {}
