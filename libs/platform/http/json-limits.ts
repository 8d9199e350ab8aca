import { PlatformError } from '../errors/domain-error';

/**
 * Limits on decoded JSON that hold for every body and query, checked without recursion so
 * that no input can exhaust the stack.
 */

/** Arrays and objects may nest at most this deep (the outermost body object is level 1). */
export const MAX_JSON_DEPTH = 32;

/** The answer to a body or query nested deeper than MAX_JSON_DEPTH. */
export const tooDeep = (): PlatformError =>
  new PlatformError('parameter_invalid', {
    hint: `The request nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
  }).asPreHandler();

/** Whether `value` nests arrays/objects more than `max` levels deep. Iterative. */
export function exceedsDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: { node: object; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null)
        stack.push({ node: child as object, depth: depth + 1 });
    }
  }
  return false;
}

/** A NUL character, or a UTF-16 surrogate without its partner. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this pattern looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The description's form of the NUL rule: every free string of a request (no enum, format or
 * pattern of its own) carries this pattern. Lone surrogates are refused too; a pattern cannot
 * say so portably, the conventions say it in words.
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/** Why a string cannot be stored as text, or undefined when it can. */
export function unstorableReason(text: string): string | undefined {
  const found = UNSTORABLE.exec(text);
  if (!found) return undefined;
  return found[0] === '\u0000'
    ? 'contains a NUL character (\\u0000), which text cannot hold'
    : 'contains a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape), which is not valid Unicode';
}

const join = (parent: string, key: string | number) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent === '' ? key : `${parent}.${key}`;

/**
 * The first string (a value, or an object key) at any depth of `value` that PostgreSQL could
 * not store, with its dotted path (`items[0].name`). Depth-first in document order; iterative.
 */
export function firstUnstorableString(value: unknown): { path: string; reason: string } | undefined {
  const stack: { node: unknown; path: string; key?: string }[] = [{ node: value, path: '' }];
  while (stack.length > 0) {
    const { node, path, key } = stack.pop()!;
    if (key !== undefined) {
      const reason = unstorableReason(key);
      if (reason) return { path, reason: `has a key that ${reason}` };
    }
    if (typeof node === 'string') {
      const reason = unstorableReason(node);
      if (reason) return { path, reason };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    // Pushed in reverse so that the first field is examined first.
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], path: join(path, i) });
    } else {
      const entries = Object.entries(node);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [name, child] = entries[i];
        stack.push({ node: child, path: join(path, name), key: name });
      }
    }
  }
  return undefined;
}

/** `sign digits e exponent` of a decimal literal with no leading or trailing zeros in `digits`. */
function decimalKey(text: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = whole + fraction;
  let exp = Number(exponent) - fraction.length;
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead);
  const trail = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trail);
  exp += trail;
  return digits === '' ? '0' : `${sign}${digits}e${exp}`;
}

/** JSON strings (skipped) and number literals. */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * The values of the number literals in a JSON text that parsing changed: literals with more
 * significant digits than a double carries (`123456789012345.6789`, `99999999999999.9999`)
 * parse to a nearby double whose shortest decimal form differs from what was written. Only a
 * literal of 16 or more digits can be changed, so texts without such a run are not scanned.
 */
export function inexactNumbers(text: string): Set<number> {
  const found = new Set<number>();
  if (!/[0-9][0-9.]{15}/.test(text)) return found;
  for (const [token] of text.matchAll(TOKENS)) {
    if (token.startsWith('"')) continue;
    const value = Number(token);
    if (decimalKey(token) !== decimalKey(String(value))) found.add(value);
  }
  return found;
}
