/**
 * A state machine's transitions table: for each status, the actions allowed from it and the
 * status each action leads to. An action absent from a status's row is not allowed there.
 */
export type Transitions<S extends string, A extends string> = Readonly<
  Record<S, Readonly<Partial<Record<A, S>>>>
>;

/**
 * The table `base` with more moves: each row of `added` joins the row of the same status (where
 * both name an action, `added` wins). The statuses keep the order of `base`.
 */
export function withMoves<S extends string, A extends string>(
  base: Transitions<S, A>,
  added: Partial<Record<S, Partial<Record<A, S>>>>,
): Transitions<S, A> {
  const table = {} as Record<S, Partial<Record<A, S>>>;
  for (const status of Object.keys(base) as S[]) table[status] = { ...base[status], ...added[status] };
  return table;
}

/** The statuses `action` may start from, in the table's order. */
export function allowedFrom<S extends string, A extends string>(table: Transitions<S, A>, action: A): S[] {
  return (Object.keys(table) as S[]).filter((status) => table[status][action] !== undefined);
}

/** The status `action` leads to from `status`, or null when the table does not allow it. */
export function nextState<S extends string, A extends string>(
  table: Transitions<S, A>,
  status: string,
  action: A,
): S | null {
  if (!Object.prototype.hasOwnProperty.call(table, status)) return null;
  return table[status as S][action] ?? null;
}

/**
 * The status `action` leads to from `status`; when the table does not allow it, throws the error
 * `refuse` makes of the current status and the statuses the action may start from.
 */
export function transition<S extends string, A extends string>(
  table: Transitions<S, A>,
  status: string,
  action: A,
  refuse: (status: string, allowed: readonly S[]) => Error,
): S {
  const next = nextState(table, status, action);
  if (next === null) throw refuse(status, allowedFrom(table, action));
  return next;
}
