/**
 * What an import's `resource` may be: a lower-case letter, then up to 63 lower-case letters,
 * digits or underscores. The imports service checks it and the description shows it (query
 * parameter and JSON body alike); a name without a registered importer passes and each of its
 * rows becomes a row error.
 */
export const RESOURCE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
