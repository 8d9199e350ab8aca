/**
 * Polls `check` until it returns true or `timeoutMs` passes; resolves to the last answer. For
 * changes that reach another API instance through NOTIFY, delivered at the changing commit.
 */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs = 1000,
  stepMs = 20,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
