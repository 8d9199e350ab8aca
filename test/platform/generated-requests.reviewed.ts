/**
 * The reviewed exceptions of the generated-request test (generated-requests.e2e-spec.ts). Each
 * entry names an operation as `METHOD /path/template` and says why. Keep them few and specific:
 * an entry that no longer applies fails the test (NO_SUCCESS) or should be deleted.
 */

/** Statuses (and, where given, error codes) a request valid by the description may get. */
export interface Allowed {
  answers: [status: number, code?: string][];
  reason: string;
}

/**
 * Business answers to valid requests: a state the generated request cannot know of (the record is
 * confirmed already, the period is closed), or a reference that names no record. Never a 400 for
 * a reason the description does not state.
 */
export const ALLOWED: Record<string, Allowed> = {};

/** Operations that reach no 2xx in this run, with the reason. */
export const NO_SUCCESS: Record<string, string> = {};

/**
 * Gaps between the description and the validators that are being closed (the description is to
 * state every constraint a validator enforces). Each is a class of the gaps-45 list; when its fix
 * lands the entry is deleted and the test holds the line.
 */
export interface KnownGap {
  gap: string;
  kind: 'valid' | 'invalid';
  operation: string;
  /** The field (for an invalid request, the one broken; for a valid one, the error's param). */
  param?: string;
  constraint?: string;
  status?: number;
  /** A regular expression the error's hint matches. */
  hint?: string;
}

export const KNOWN_GAPS: KnownGap[] = [];
