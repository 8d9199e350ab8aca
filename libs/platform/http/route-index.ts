/**
 * Express tries its route layers in order and runs each one's path regular expression against
 * the request's path until one matches: over the API's ~270 layers, most of a request's routing
 * is regular expressions that fail. Each route layer is given a cheap first test, read once at
 * start-up from its path: the literal text before its first parameter. A path that does not start
 * with it cannot match the layer's expression, so the expression is not run; every other path is
 * matched by Express exactly as before (same order, same parameters, same decoding errors).
 */

interface RouteLayer {
  route?: { path?: unknown };
  match: (path: string) => unknown;
}

/** Characters that start a parameter, wildcard, optional group or escape in a route path. */
const SYNTAX = /[:*{}()\\[\]?+!]/;

/**
 * The literal head of a route path, without trailing slashes (Express matches `/a/` at `/a`, and
 * an optional group may follow one).
 */
export function literalPrefix(path: string): string {
  const cut = path.search(SYNTAX);
  return (cut === -1 ? path : path.slice(0, cut)).replace(/\/+$/, '');
}

/**
 * Gives every route layer of an Express router (`app.router.stack`) its literal-prefix test.
 * Layers of several paths, regular-expression paths and middleware are left as they are.
 * Returns the number of layers indexed.
 */
export function indexRouteLayers(stack: readonly RouteLayer[], caseSensitive = false): number {
  let indexed = 0;
  for (const layer of stack) {
    const path = layer.route?.path;
    if (typeof path !== 'string') continue;
    const literal = literalPrefix(path);
    // Only prefixes that hold something beyond the leading slash save a regular expression.
    if (literal.length <= 1) continue;
    const match = layer.match.bind(layer);
    const prefix = caseSensitive ? literal : literal.toLowerCase();
    const length = prefix.length;
    // ASCII case folded by hand, without a call or a lower-cased copy: this runs for every route
    // layer of every request.
    layer.match = (requestPath: string) => {
      if (requestPath.length < length) return false;
      for (let i = 0; i < length; i++) {
        let c = requestPath.charCodeAt(i);
        if (!caseSensitive && c >= 65 && c <= 90) c += 32;
        if (c !== prefix.charCodeAt(i)) return false;
      }
      return match(requestPath);
    };
    indexed++;
  }
  return indexed;
}
