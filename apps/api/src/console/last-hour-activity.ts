import { Injectable } from '@nestjs/common';
import { ActivityRepository, MinuteActivity } from '@app/database';

const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;
/**
 * A minute's figures are final once nothing can still be written into it: history entries are
 * stamped while their statement runs, so a minute that ended this long ago has all its entries.
 */
const SETTLE_MS = MINUTE_MS;

/**
 * The last hour of activity, per minute. Finished minutes never change, so each is read once
 * and kept; a refresh reads only the minutes still filling. The overview refreshes itself every
 * few seconds in every open tab, and this keeps that to a short index range of the history.
 */
@Injectable()
export class LastHourActivity {
  private readonly settled = new Map<number, MinuteActivity>();

  constructor(private readonly activity: ActivityRepository) {}

  async at(now: Date): Promise<MinuteActivity[]> {
    const current = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
    const first = current - (HOUR_MINUTES - 1) * MINUTE_MS;
    for (const minute of this.settled.keys()) if (minute < first) this.settled.delete(minute);
    let unread = first;
    while (this.settled.has(unread)) unread += MINUTE_MS;
    const fresh = unread <= current ? await this.activity.perMinute(new Date(unread), now) : [];
    for (const m of fresh) if (m.minute.getTime() + MINUTE_MS + SETTLE_MS <= now.getTime()) this.settled.set(m.minute.getTime(), m);
    const byMinute = new Map([...this.settled, ...fresh.map((m): [number, MinuteActivity] => [m.minute.getTime(), m])]);
    return Array.from({ length: HOUR_MINUTES }, (_, i) => byMinute.get(first + i * MINUTE_MS)!);
  }
}
