/** `previous_attributes` of an update: the fields of `before` whose value differs in `after`. */
export function previousAttributes(
  before: object,
  after: object,
  ignore: readonly string[] = ['updated_at'],
): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const a = after as Record<string, unknown>;
  for (const [key, value] of Object.entries(before)) {
    if (ignore.includes(key)) continue;
    if (JSON.stringify(value) !== JSON.stringify(a[key])) previous[key] = value;
  }
  return previous;
}
