// The `/actions` API as it travels: what a client sends and what it gets back. Plain types, so a
// client, a test or the API's own request classes can share them without loading any server code.

/** A JSON object as stored and returned unchanged (`data`, `metadata`). */
export type JsonObject = { [key: string]: unknown };

/** Where an action is in its life; `CANCELED`, `COMPLETED`, `FAILED` and `NO_ACTION` are final until a manual retry. */
export type ActionStatusName = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'NO_ACTION' | 'CANCELED';

/** How often a `repeat: true` action with no cron runs. */
export type FrequencyName = 'TEN_MINS' | 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY';

/** What a repeating action does with occurrences whose time passed while it could not run. */
export type MisfirePolicyName = 'RUN_ONCE' | 'RUN_ALL' | 'SKIP';

/** An action's own retry policy: how many retries after the first attempt, and the wait before each. */
export interface RetryPolicyBody {
  readonly maxRetries: number;
  readonly backoff:
    | { readonly type: 'exponential'; readonly baseMs: number; readonly maxMs: number }
    | { readonly type: 'fixed'; readonly delayMs: number }
    | { readonly type: 'list'; readonly delaysMs: readonly number[] };
}

/** Time as the API accepts it: epoch milliseconds (from 100,000,000,000: a smaller number is refused as seconds), an ISO-8601 string with a zone, or a Date (sent as ISO). */
export type ApiTime = number | string | Date;

/**
 * The body of `POST /actions`, of each item of a batch, and of a preview. `Action` and `Data` narrow
 * it to one action type (`CreateActionBody` makes the union of a map of types); by default any name
 * and any JSON object, as the API takes them before checking them.
 */
export interface CreateActionRequest<Action extends string = string, Data = JsonObject> {
  /** A registered action type, e.g. `HTTP_REQUEST`. */
  action: Action;
  /** When to run; may be left out with `cron` (the first cron time from now). */
  executionTime?: ApiTime;
  /** Checked against the action type's schema. */
  data: Data;
  metadata?: JsonObject;
  repeat?: boolean;
  frequency?: FrequencyName;
  /** Executions still to run, this one included. */
  executionRemainder?: number;
  misfirePolicy?: MisfirePolicyName;
  cron?: string;
  /** IANA zone of the schedule (UTC by default). */
  timezone?: string;
  endAt?: ApiTime;
  retryPolicy?: RetryPolicyBody;
  callbackUrl?: string;
  /** Each occurrence runs up to this many ms (0–3,600,000) after its time, by a delay fixed for it. */
  jitterMs?: number | null;
  /** A wall-clock schedule's rule for daylight-saving changes (repeating actions; default shift, first). */
  dstPolicy?: DstPolicyBody | null;
  /** The name of a calendar whose dates the schedule skips (repeating actions). */
  calendar?: string | null;
}

/** How a wall-clock schedule meets daylight-saving changes: a skipped local time, and a repeated one. */
export interface DstPolicyBody {
  gap: 'shift' | 'skip';
  overlap: 'first' | 'last' | 'both';
}

/**
 * The body of `PATCH /actions/:id`: the fields to change (not the type); `null` clears `endAt`, `retryPolicy`, `callbackUrl`, `jitterMs` and `calendar`,
 * and sets `dstPolicy` back to its default. `Data` is what `data` may be: the whole new data of the action's type.
 */
export type UpdateActionRequest<Data = JsonObject> = Omit<
  Partial<CreateActionRequest<string, Data>>,
  'action' | 'endAt' | 'retryPolicy' | 'callbackUrl'
> & {
  endAt?: ApiTime | null;
  retryPolicy?: RetryPolicyBody | null;
  callbackUrl?: string | null;
};

/** The body of `POST /actions/:id/cancel`. */
export interface CancelActionRequest {
  /** Goes into the action's history. */
  note?: string;
}

/** The body of `POST /actions/:id/pause`: like a cancel's, a note for the history. */
export type PauseActionRequest = CancelActionRequest;

/** The body of `POST /actions/:id/skip`. */
export interface SkipOccurrencesRequest {
  /** How many of the next occurrences not to run: 1–100, 1 by default. */
  count?: number;
}

/** An action as every route answers it; schedule fields are null for a one-off action, times are ISO-8601 UTC. */
export interface ActionResource {
  id: string;
  action: string;
  status: ActionStatusName;
  /** Scheduled time of the current occurrence. */
  executionTime: string;
  data: JsonObject;
  metadata: JsonObject;
  repeat: boolean;
  frequency: FrequencyName | null;
  executionRemainder: number | null;
  cron: string | null;
  timezone: string | null;
  endAt: string | null;
  misfirePolicy: MisfirePolicyName | null;
  retryPolicy: RetryPolicyBody | null;
  callbackUrl: string | null;
  retryCount: number;
  lastError: string | null;
  /** Current occurrence, 1-based; the idempotency key of its attempts is `<id>:<occurrence>`. */
  occurrence: number;
  /** When the next attempt is due (later than executionTime while backing off). */
  nextAttemptAt: string;
  /** Set while a cancellation waits for the running or locked occurrence to end. */
  cancelRequestedAt: string | null;
  /** No attempt of a later occurrence starts until the action is resumed. */
  paused: boolean;
  /** Each occurrence runs up to this many ms after its scheduled time, by a delay fixed for it; null: at its time. */
  jitterMs: number | null;
  /** Null for a one-off action. */
  dstPolicy: DstPolicyBody | null;
  /** The calendar whose dates the schedule skips; null: none. */
  calendar: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One page of `GET /actions`. */
export interface ActionPage {
  items: ActionResource[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** The answer of `POST /actions/batch`: the created actions, in the order sent. */
export interface ActionBatch {
  items: ActionResource[];
}

/** The body of `POST /actions/batch`: up to 1000 creates, stored all or none. */
export interface CreateBatchRequest {
  items: CreateActionRequest[];
}

/** `GET /actions/stats`: counts by status, overall and per action type. */
export interface ActionStats {
  total: number;
  byStatus: Record<ActionStatusName, number>;
  byAction: Record<string, Partial<Record<ActionStatusName, number>>>;
}

/** One change of an action's status, as `GET /actions/:id/history` lists it. */
export interface HistoryEntry {
  at: string;
  from: ActionStatusName | null;
  to: ActionStatusName;
  occurrence: number;
  /** Attempt within the occurrence (1 = first try); 0 when not an attempt. */
  attempt: number;
  note: string | null;
}

/** `GET /actions/:id/occurrences` and `POST /actions/preview`: the coming times, ISO-8601 UTC, oldest first. */
export interface Occurrences {
  occurrences: string[];
}

/** `?limit=&cursor=` of a keyset-paged list. */
export interface PageParams {
  limit?: number;
  cursor?: string;
}

/** The query of `GET /actions`; `Action` is the names the `action` filter may take. */
export interface ListActionsParams<Action extends string = string> extends PageParams {
  status?: ActionStatusName;
  action?: Action;
}

/** The query of `GET /actions/:id/history`: one page, oldest first (up to 1000 entries). */
export type HistoryParams = PageParams;
