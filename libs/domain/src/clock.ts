import { Injectable } from '@nestjs/common';

/** The current time, injectable so tests can control it. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
