/**
 * The length of a string as JSON Schema counts it (`maxLength`, `minLength`, `propertyNames`):
 * Unicode code points. A surrogate pair (an emoji such as U+1F4A5) is one character; a variation
 * selector (U+FE0F) or a combining mark is one character of its own; a lone surrogate counts one.
 * Every length limit of a request (the field rules, metadata and string maps, credentials) counts
 * with it, so that the description's limit and the server's are the same number.
 */
export function codePointLength(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Whether `value` has at most `max` code points (a string of at most `max` UTF-16 units surely has). */
export const atMostCodePoints = (value: string, max: number): boolean =>
  value.length <= max || codePointLength(value) <= max;

/** Whether `value` has at least `min` code points (one with fewer UTF-16 units surely has not). */
export const atLeastCodePoints = (value: string, min: number): boolean =>
  value.length >= min && codePointLength(value) >= min;
