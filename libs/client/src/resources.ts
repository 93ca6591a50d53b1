// Types only: the API's own request and response classes are the one definition of the wire
// format, so the client never drifts from it. `import type` is erased at compile time, so the
// client loads none of the API's code.
import type {
  ActionBatchResponse,
  ActionPageResponse,
  ActionResponse,
  ActionStatsResponse,
  HistoryEntryResponse,
} from '../../../apps/api/src/actions/dto/action.response';
import type { CreateActionDto } from '../../../apps/api/src/actions/dto/create-action.dto';
import type { HistoryQuery } from '../../../apps/api/src/actions/dto/history.query';
import type { ListActionsQuery } from '../../../apps/api/src/actions/dto/list-actions.query';
import type { OccurrencesResponse } from '../../../apps/api/src/actions/dto/occurrences.query';
import type { UpdateActionDto } from '../../../apps/api/src/actions/dto/update-action.dto';

export type { ActionBatchResponse, ActionPageResponse, ActionResponse, ActionStatsResponse, HistoryEntryResponse, OccurrencesResponse };
export type ListActionsParams = ListActionsQuery;
export type HistoryParams = HistoryQuery;

/** Time as the API accepts it: epoch milliseconds, an ISO-8601 string with a zone, or a Date (sent as ISO). */
export type ApiTime = number | string | Date;

/** What the DTOs hold as a Date after parsing is sent as any accepted time; every other field is as the DTO declares it. */
type AsSentOnTheWire<T> = { [K in keyof T]: T[K] extends Date | undefined ? ApiTime | Exclude<T[K], Date | undefined> : T[K] };

/** The body of a create (`POST /actions`, each item of a batch, a preview). */
export type CreateActionInput = AsSentOnTheWire<CreateActionDto>;
/** The body of a change (`PATCH /actions/:id`); `null` clears `endAt` and `retryPolicy`. */
export type UpdateActionInput = AsSentOnTheWire<UpdateActionDto>;
