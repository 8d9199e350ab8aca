import crypto from 'node:crypto';

/** SHA-1 in base64url: the one-shot `crypto.hash` where Node has it (>= 20.12), else a Hash object. */
const sha1 =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (text: string) =>
        (crypto as unknown as { hash(a: string, d: string, e: string): string }).hash(
          'sha1',
          text,
          'base64url',
        )
    : (text: string) => crypto.createHash('sha1').update(text).digest('base64url');

/** Weak ETag of a representation already serialised with JSON.stringify. */
export const etagOfJson = (json: string) => `W/"${sha1(json)}"`;

/** Weak ETag of a representation: it changes whenever any field (updated_at included) changes. */
export const etagOf = (body: unknown) => etagOfJson(JSON.stringify(body));

/** Whether an If-Match / If-None-Match header names `etag` (weak comparison, `*` matches all). */
export const etagMatches = (header: string, etag: string) =>
  header
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t === etag || t.replace(/^W\//, '') === etag.replace(/^W\//, ''));
