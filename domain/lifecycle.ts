// One shape for the lifecycles whose moves depend on who acts: a trade offer (domain/trades.ts),
// a give-away queue entry (domain/giveaways.ts) and
// the held money of a paid order (domain/orders.ts). Per action, the transitions it may take, each from
// one status, by some roles, to one status; one helper finds the move allowed now. A listing's own
// status (listing-lifecycle.ts) has one actor, its owner, and keeps its simpler table.

export interface Transition<Status extends string, Role extends string> {
  from: Status;
  by: readonly Role[];
  to: Status;
}

/** Every action with the transitions it may take (none allowed from a status not listed). */
export type Lifecycle<Action extends string, Status extends string, Role extends string> = Record<
  Action,
  readonly Transition<Status, Role>[]
>;

/** The transition `action` takes from `from` when `by` acts, or null when the lifecycle forbids it. */
export function findTransition<Action extends string, Status extends string, Role extends string>(
  lifecycle: Lifecycle<Action, Status, Role>,
  action: Action,
  from: Status,
  by: Role,
): Transition<Status, Role> | null {
  return lifecycle[action].find((t) => t.from === from && t.by.includes(by)) ?? null;
}
