/**
 * Where a JSON text first breaks the grammar, for an error a person can act on: the offset (in
 * UTF-16 code units, as JSON.parse counts), its line and column (1-based) and what was found
 * there. A scan without recursion (nesting kept on an array), so no input exhausts the stack.
 * Returns null for valid JSON.
 */
export interface JsonSyntaxProblem {
  position: number;
  line: number;
  column: number;
  /** `'}'`, `end of input`, ... */
  found: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const LITERALS = ['true', 'false', 'null'];
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;

export function jsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  let i = 0;
  const fail = (at: number): JsonSyntaxProblem => {
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - (before.lastIndexOf('\n') + 1) + 1;
    const found = at >= text.length ? 'end of input' : JSON.stringify(text[at]);
    return { position: at, line, column, found };
  };
  const skip = () => {
    while (i < text.length && WS.has(text[i])) i++;
  };
  /** Reads a string at i; false when it is malformed (i left at the fault). */
  const string = (): boolean => {
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return true;
      }
      if (c < ' ') return false;
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            return false;
          }
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) {
          i++;
          return false;
        }
        i += 2;
        continue;
      }
      i++;
    }
    return false;
  };
  /** Reads one scalar at i, or opens a container (pushed on the stack); false at a fault. */
  const stack: ('{' | '[')[] = [];
  const value = (): boolean => {
    skip();
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      return true;
    }
    if (c === '"') return string();
    const literal = LITERALS.find((l) => text.startsWith(l, i));
    if (literal) {
      i += literal.length;
      return true;
    }
    const number = NUMBER.exec(text.slice(i, i + 400));
    if (number) {
      i += number[0].length;
      return true;
    }
    return false;
  };
  // States: after a container opens, a value or its closing bracket; after a value, a comma or
  // the closing bracket of the innermost container.
  if (!value()) return fail(i);
  let justOpened = stack.length > 0;
  while (stack.length > 0) {
    skip();
    const top = stack[stack.length - 1];
    const close = top === '{' ? '}' : ']';
    if (justOpened && text[i] === close) {
      stack.pop();
      i++;
      justOpened = false;
      continue;
    }
    if (!justOpened) {
      if (text[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (text[i] !== ',') return fail(i);
      i++;
      skip();
    }
    if (top === '{') {
      if (text[i] !== '"' || !string()) return fail(i);
      skip();
      if (text[i] !== ':') return fail(i);
      i++;
    }
    const depth = stack.length;
    if (!value()) return fail(i);
    justOpened = stack.length > depth;
  }
  skip();
  return i < text.length ? fail(i) : null;
}

/** The sentence of a JSON syntax problem: `unexpected '}' at line 1, column 6 (position 5)`. */
export const describeJsonSyntaxProblem = (p: JsonSyntaxProblem) =>
  `unexpected ${p.found} at line ${p.line}, column ${p.column} (position ${p.position})`;
