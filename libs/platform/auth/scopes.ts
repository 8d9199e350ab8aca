/** `<resource>:read` and `<resource>:write` of each resource. */
export const readWrite = (...resources: string[]): string[] =>
  resources.flatMap((r) => [`${r}:read`, `${r}:write`]);

/** The scopes of the platform's own routes (API keys, the activity log). */
const PLATFORM_SCOPES = [...readWrite('api_keys'), 'activity:read'];

const scopes: string[] = [...PLATFORM_SCOPES].sort();
const readScopes: string[] = scopes.filter((s) => s.endsWith(':read'));

/**
 * Every scope a key may hold (docs/reference/authentication.md), sorted; `*` grants
 * all. The platform's own, then those each context declares (its `<context>.scopes.ts`), which
 * the apps add once at start (registerScopes).
 */
export const SCOPES: readonly string[] = scopes;

/** Adds the scopes of the contexts (a scope declared twice counts once). */
export function registerScopes(added: readonly string[]): void {
  const all = [...new Set([...scopes, ...added])].sort();
  scopes.splice(0, scopes.length, ...all);
  readScopes.splice(0, readScopes.length, ...all.filter((s) => s.endsWith(':read')));
}

export const WILDCARD_SCOPE = '*';

export const READ_SCOPES: readonly string[] = readScopes;

export const isKnownScope = (scope: string) => scope === WILDCARD_SCOPE || SCOPES.includes(scope);

/** Separates alternatives in one requirement: `orders:read|purchasing:read` is met by either scope. */
export const SCOPE_ALTERNATIVE = '|';

/** One requirement met by any of `scopes` (for routes that either of two scopes opens). */
export const anyScope = (...scopes: string[]) => scopes.join(SCOPE_ALTERNATIVE);

/** The alternatives of one requirement (a plain scope is its only alternative). */
export const alternativesOf = (requirement: string) => requirement.split(SCOPE_ALTERNATIVE);

/** The requirements of `required` that `held` does not meet (each is a scope or `a|b` alternatives). */
export function missingScopes(held: ReadonlySet<string>, required: readonly string[]): string[] {
  if (held.has(WILDCARD_SCOPE)) return [];
  return required.filter((requirement) => !alternativesOf(requirement).some((scope) => held.has(scope)));
}
