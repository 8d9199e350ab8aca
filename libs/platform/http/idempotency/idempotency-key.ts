/**
 * The Idempotency-Key header's rule, read by the pipeline that enforces it and by the description
 * that documents it: 1 to 255 characters, at least one of them not white space (HTTP drops the
 * white space around a header value, so a key of spaces only arrives empty).
 */
export const IDEMPOTENCY_KEY_RULE = { minLength: 1, maxLength: 255, pattern: '\\S' } as const;

/** Why `key` (the header as received) is refused, or undefined when it is a usable key. */
export function idempotencyKeyProblem(key: string): 'too_long' | 'empty' | undefined {
  if (key.length > IDEMPOTENCY_KEY_RULE.maxLength) return 'too_long';
  if (key.length < IDEMPOTENCY_KEY_RULE.minLength || !new RegExp(IDEMPOTENCY_KEY_RULE.pattern).test(key))
    return 'empty';
  return undefined;
}
