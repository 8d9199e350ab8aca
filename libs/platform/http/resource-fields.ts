/** Fields every presenter writes the same way. */

/** A timestamp that may be absent, as ISO 8601 or null. */
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The closing fields of a stored resource: its mode and its creation and update times. */
export const resourceTimestamps = (r: { livemode: boolean; createdAt: Date; updatedAt: Date }) => ({
  livemode: r.livemode,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});
