/** An order line's commitment after units of it moved (shipped or received). */
export interface CommitmentRelease {
  /** Where the line was committed before the move (null: nowhere, the entity had no location). */
  fromLocationId: string | null;
  /** Where it is committed now: the location the units moved from, or unchanged. */
  locationId: string | null;
  /** Units the line held open before the move. */
  openBefore: number;
  /** Units of the open quantity the move consumed (at most openBefore). */
  released: number;
}

/**
 * The commitment changes of one released line, per location. Without a change of location the
 * released units leave the location's commitment. When the units moved from another location,
 * the whole open quantity leaves the old location and what stays open is committed at the new
 * one, so the rest of the line is expected from where it last shipped. Zero changes and
 * locations that are null are left out.
 */
export function releaseDeltas(c: CommitmentRelease): { locationId: string; quantity: number }[] {
  const moved = c.locationId !== c.fromLocationId;
  const deltas = moved
    ? [
        { locationId: c.fromLocationId, quantity: -c.openBefore },
        { locationId: c.locationId, quantity: c.openBefore - c.released },
      ]
    : [{ locationId: c.locationId, quantity: -c.released }];
  return deltas.flatMap((d) =>
    d.locationId && d.quantity !== 0 ? [{ locationId: d.locationId, quantity: d.quantity }] : [],
  );
}
