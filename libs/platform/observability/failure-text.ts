/**
 * The one line a command prints when it fails before or outside its own error handling: the
 * error's message (a stack only when there is no message), or a sentence when a library rejected
 * without a reason, so that no failure prints `undefined` or nothing.
 */
export function failureText(error: unknown): string {
  if (error instanceof Error) {
    if (error.message) return error.message;
    return error.stack ?? `${error.name} without a message`;
  }
  if (error === undefined || error === null || error === '') {
    return 'failed without a reason (a library rejected with no error); run again with LOG_LEVEL=debug for details';
  }
  return typeof error === 'string' ? error : JSON.stringify(error);
}
