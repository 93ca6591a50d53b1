import { Clock } from '@app/domain';

/** A clock that moves only when told: specs decide what time it is. */
export class ManualClock extends Clock {
  constructor(private current: Date) {
    super();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
