import { Injectable } from '@nestjs/common';

/**
 * Where the code reads the time for rate-limit windows, failed-authentication windows, key-cache
 * lifetimes and scheduled work (collections): the system clock, optionally moved by a fixed
 * offset. Tests move it (`set`, `advance`) instead of waiting for a window to end; production
 * never does.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  /** Milliseconds since the epoch, as Date.now(). */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** The current instant as a Date. */
  date(): Date {
    return new Date(this.now());
  }

  /** Makes now() answer `at` (then run on from there). */
  set(at: number | Date): void {
    this.offsetMs = (typeof at === 'number' ? at : at.getTime()) - Date.now();
  }

  /** Moves now() forward by `ms`. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** The system clock as is, for code made outside dependency injection. */
export const SYSTEM_CLOCK = new Clock();
