import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent.
 * On a machine with gigabytes of memory V8 allows four times the live heap; the API's live heap
 * after start-up is about 55 MB (its code, module sources and metadata), and under load a
 * steady share of each request's garbage is promoted before it dies, so the old generation
 * filled to about 240 MB between full collections and the process peaked near 350 MB. At 100 %
 * (twice the live heap) the peak is about 240 MB, with the same requests/s and CPU time per
 * request, measured side by side on the platform benchmark (docs/operations.md). V8 reads the
 * setting each time it sizes the heap after a collection, so setting it at start-up applies.
 */
export const HEAP_GROWING_PERCENT = 100;

/** Applies HEAP_GROWING_PERCENT to this process (the API's entry points call it first). */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
