/** Who shares a limit: a tenant's attempts, or a webhook receiver's deliveries. */
export interface SlotGroup {
  readonly kind: 'tenant' | 'receiver';
  readonly id: string;
  /** Attempts of the group that may run at once, across every worker. */
  readonly limit: number;
}

/** What a settle changes before it hands free slots on: a holder's slot to free, a member to park. */
export interface SlotChange {
  readonly free?: string;
  readonly park?: string;
}

/**
 * Where the groups' slots and parked members are kept, for every worker alike (`RedisSlotStore`,
 * Lua scripts on Redis's clock, in the apps). A slot is held by a holder until its lease ends; a
 * lapsed one is freed by the next call that reaches its group. Members are parked in the order they
 * first parked and served in that order: a freed slot is reserved for the longest-parked member, and
 * a newcomer takes a free slot only when no one is parked ahead of it. The parked list lives a ttl
 * from its last park.
 */
export interface SlotStorePort {
  /**
   * Takes a slot of `group` for `holder` for `leaseMs`: the one it holds (even at the limit), the
   * one reserved for its `parked` member, or a free one when no other member is parked ahead of it.
   * Takes `parked` off the group's parked list. False when there is none for it.
   */
  take(group: SlotGroup, holder: string, parked: string, leaseMs: number): Promise<boolean>;
  /** Ends `holder`'s lease `leaseMs` from now; a slot that lapsed is not taken again. */
  renew(group: SlotGroup, holder: string, leaseMs: number): Promise<void>;
  /**
   * Applies `change` (a park keeps a member's first place, and the parked list then lives
   * `parkedTtlMs`), then, when a slot is free, takes the longest-parked member off the list,
   * reserves the slot for it for `leaseMs` (held under the member's name: `{ free: member }` gives
   * it up) and returns it for the caller to wake; null when no slot is free or none is parked.
   */
  settle(group: SlotGroup, change: SlotChange, parkedTtlMs: number, leaseMs: number): Promise<string | null>;
}

export const SLOT_STORE = Symbol('SLOT_STORE');
