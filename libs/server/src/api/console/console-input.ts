import { ActionStatus, ALL_STATUSES, ErrorCode, PunctualDomainError, TENANT_ID_RULE, isTenantId } from '@app/domain';
import { DEFAULT_PAGE_SIZE, ListFilters } from './views/action-list.view';

/** A console request names a value it cannot use; the message names the field. → 400 page */
export class ConsoleInputError extends PunctualDomainError {
  readonly code = ErrorCode.InvalidConsoleInput;

  constructor(
    readonly field: string,
    problem: string,
  ) {
    super(`${field} ${problem}`);
    this.name = 'ConsoleInputError';
  }
}

export type RawInput = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACTION_TYPE = /^[A-Za-z0-9_.-]{1,64}$/;
const PAGE_SIZE = /^([1-9]\d?|[1-4]\d\d|500)$/;
/** What a datetime-local field sends (read as UTC), or an ISO-8601 time with its zone (what console.js sends). */
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const ZONED_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** One text value of a query or form field; repeated fields are refused rather than guessed at. */
export function textField(input: RawInput, field: string): string | undefined {
  const value = input[field];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new ConsoleInputError(field, 'must be given once');
  return value.trim() || undefined;
}

export function parseId(value: string, field = 'id', what = 'an action id'): string {
  if (!UUID.test(value)) throw new ConsoleInputError(field, `must be ${what} (a UUID)`);
  return value.toLowerCase();
}

/** A whole number from 1 to `max`, as a number field sends it. */
export function parseCount(value: string, field: string, max: number): number {
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= max)) throw new ConsoleInputError(field, `must be a whole number from 1 to ${max}`);
  return n;
}

/** A tenant's id as the admin API takes it; whether such a tenant exists is for the caller to ask. */
export function parseTenantId(value: string, field = 'tenant'): string {
  if (!isTenantId(value)) throw new ConsoleInputError(field, `must be a tenant's id: ${TENANT_ID_RULE}`);
  return value;
}

export function parseActionType(value: string, field = 'action'): string {
  if (!ACTION_TYPE.test(value)) throw new ConsoleInputError(field, 'must be an action type name, e.g. HTTP_REQUEST');
  return value;
}

/** The final statuses a dead letter has, FAILED unless the field names NO_ACTION. */
export const DEAD_LETTER_STATUSES = [ActionStatus.Failed, ActionStatus.NoAction] as const;
export type DeadLetterStatus = (typeof DEAD_LETTER_STATUSES)[number];

export function parseDeadLetterStatus(input: RawInput, field = 'status'): DeadLetterStatus {
  const value = textField(input, field) ?? ActionStatus.Failed;
  const status = DEAD_LETTER_STATUSES.find((s) => s === (value as ActionStatus));
  if (!status) throw new ConsoleInputError(field, 'must be FAILED or NO_ACTION');
  return status;
}

export function parseTime(value: string, field: string): Date {
  const time = LOCAL_TIME.test(value) ? new Date(`${value}Z`) : ZONED_TIME.test(value) ? new Date(value) : null;
  if (!time || Number.isNaN(time.getTime())) throw new ConsoleInputError(field, 'must be a date and time, e.g. 2030-01-15T08:35');
  const year = time.getUTCFullYear();
  if (year < 1970 || year > 9999) throw new ConsoleInputError(field, 'must be between the years 1970 and 9999');
  return time;
}

/** The list's filters from its query string; `id` is handled before (it leads to the action's page). */
export function parseListFilters(query: RawInput): ListFilters {
  const status = textField(query, 'status');
  if (status && !ALL_STATUSES.includes(status as ActionStatus)) throw new ConsoleInputError('status', `must be one of ${ALL_STATUSES.join(', ')}`);
  const action = textField(query, 'action');
  const from = textField(query, 'from');
  const to = textField(query, 'to');
  const order = textField(query, 'order') ?? 'next-due';
  if (order !== 'next-due' && order !== 'newest') throw new ConsoleInputError('order', 'must be next-due or newest');
  const paused = textField(query, 'paused');
  if (paused && paused !== 'yes' && paused !== 'no') throw new ConsoleInputError('paused', 'must be yes or no');
  const limit = textField(query, 'limit');
  if (limit && !PAGE_SIZE.test(limit)) throw new ConsoleInputError('limit', 'must be a whole number from 1 to 500');
  return {
    status: status as ActionStatus | undefined,
    action: action && parseActionType(action),
    paused: paused ? paused === 'yes' : undefined,
    dueFrom: from ? parseTime(from, 'from') : undefined,
    dueBefore: to ? parseTime(to, 'to') : undefined,
    newestFirst: order === 'newest',
    limit: limit ? Number(limit) : DEFAULT_PAGE_SIZE,
    cursor: textField(query, 'cursor'),
  };
}
