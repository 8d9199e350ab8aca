/**
 * Promise.all for statements issued together inside a transaction. It answers only once every
 * branch has settled, so no branch is still issuing statements when the caller goes on (or rolls
 * the transaction back and hands its connection back to the pool); then it throws the first error
 * that arrived (a failed write before the "transaction is aborted" of the statements behind it),
 * or answers the values in order.
 */
export async function together<T extends readonly unknown[] | []>(
  branches: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  let first: { error: unknown } | undefined;
  const settled = await Promise.allSettled(
    branches.map((branch) =>
      Promise.resolve(branch).catch((error: unknown) => {
        first ??= { error };
        throw error;
      }),
    ),
  );
  if (first) throw first.error;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
