import { Injectable } from '@nestjs/common';
import { ActivityRepository, MinuteActivity, TenantScope, ownedBy } from '@app/database';

const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;
/**
 * A minute's figures are final once nothing can still be written into it: history entries are
 * stamped while their statement runs, so a minute that ended this long ago has all its entries.
 */
const SETTLE_MS = MINUTE_MS;
/** The key of every tenant's minutes: no tenant's id has a `*`. */
const EVERY_TENANT_KEY = '*';

/**
 * The last hour of activity, per minute, of every tenant or of one. Finished minutes never change,
 * so each is read once per scope and kept; a refresh reads only the minutes still filling. The
 * overview refreshes itself every few seconds in every open tab, and this keeps that to a short
 * index range of the history.
 */
@Injectable()
export class LastHourActivity {
  /** The finished minutes read, by scope (a tenant's id, or EVERY_TENANT_KEY), then by their start. */
  private readonly settled = new Map<string, Map<number, MinuteActivity>>();

  constructor(private readonly activity: ActivityRepository) {}

  async at(now: Date, scope: TenantScope): Promise<MinuteActivity[]> {
    const current = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
    const first = current - (HOUR_MINUTES - 1) * MINUTE_MS;
    this.forgetBefore(first);
    const key = ownedBy(scope) ?? EVERY_TENANT_KEY;
    const settled = this.settled.get(key) ?? new Map<number, MinuteActivity>();
    this.settled.set(key, settled);
    let unread = first;
    while (settled.has(unread)) unread += MINUTE_MS;
    const fresh = unread <= current ? await this.activity.perMinute(scope, new Date(unread), now) : [];
    for (const m of fresh) if (m.minute.getTime() + MINUTE_MS + SETTLE_MS <= now.getTime()) settled.set(m.minute.getTime(), m);
    const byMinute = new Map([...settled, ...fresh.map((m): [number, MinuteActivity] => [m.minute.getTime(), m])]);
    return Array.from({ length: HOUR_MINUTES }, (_, i) => byMinute.get(first + i * MINUTE_MS)!);
  }

  /** Drops the minutes that left the hour, and the scopes left with none, so tenants looked at once are not kept for good. */
  private forgetBefore(first: number): void {
    for (const [key, minutes] of this.settled) {
      for (const minute of minutes.keys()) if (minute < first) minutes.delete(minute);
      if (minutes.size === 0) this.settled.delete(key);
    }
  }
}
