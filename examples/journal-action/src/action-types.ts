import type { ActionTypeMap } from '@punctual/client';
import type { JOURNAL_ENTRY } from './journal-entry';
import type { SIGNED_PING } from './signed-ping';

/**
 * The project's own action types, by name, with the JSON shape of each one's data, for a typed
 * client: `PunctualClient.overHttp<JournalActionTypes>(…)` knows them beside the built-in ones, and a
 * create that names another type, or gives one the wrong data, does not compile. Types only: nothing
 * of the definitions' modules is loaded.
 */
export type JournalActionTypes = ActionTypeMap<typeof JOURNAL_ENTRY | typeof SIGNED_PING>;
