import { signRequest } from './sign-request';

/** The message patterns the API serves, one per `/actions` route. */
export const RPC_PATTERNS = {
  create: 'punctual.actions.create',
  createBatch: 'punctual.actions.createBatch',
  preview: 'punctual.actions.preview',
  get: 'punctual.actions.get',
  list: 'punctual.actions.list',
  stats: 'punctual.actions.stats',
  history: 'punctual.actions.history',
  occurrences: 'punctual.actions.occurrences',
  update: 'punctual.actions.update',
  delete: 'punctual.actions.delete',
  retry: 'punctual.actions.retry',
  cancel: 'punctual.actions.cancel',
  pause: 'punctual.actions.pause',
  resume: 'punctual.actions.resume',
  skip: 'punctual.actions.skip',
  putCalendar: 'punctual.calendars.put',
  getCalendar: 'punctual.calendars.get',
  listCalendars: 'punctual.calendars.list',
  deleteCalendar: 'punctual.calendars.delete',
} as const;

export type RpcPattern = (typeof RPC_PATTERNS)[keyof typeof RPC_PATTERNS];

/** A message as the API expects it: the signature headers beside the body, which is JSON text signed as it is. */
export interface RpcMessage {
  headers: Record<string, string>;
  body: string;
}

/** A message carrying `bodyText` as it is, signed for `pattern` (METHOD `RPC`, PATH the pattern). */
export function signedMessage(key: { keyId: string; secret: string }, pattern: string, bodyText: string): RpcMessage {
  return { headers: signRequest({ ...key, method: 'RPC', pathWithQuery: pattern, body: bodyText }), body: bodyText };
}
