import { CalendarPosition } from '@app/database';
import { isCalendarName, isTenantId } from '@app/domain';
import { decodeKeys, encodeKeys } from '../input/list-cursor';

/** Opaque keyset cursor of a list of calendars: the name and tenant of the last calendar of a page. */
export function encodeCalendarCursor(position: CalendarPosition): string {
  return encodeKeys([position.name, position.tenantId]);
}

/** Reads a cursor back; anything but a calendar's name and a tenant's id is refused (400). */
export function decodeCalendarCursor(cursor: string): CalendarPosition {
  const [name, tenantId] = decodeKeys(cursor, 2, ([name, tenantId]) => isCalendarName(name) && isTenantId(tenantId));
  return { name, tenantId };
}
