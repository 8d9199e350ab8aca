import { Injectable } from '@nestjs/common';

/**
 * The current instant, as a provider: scheduled work asks it instead of `new Date()`, so a test
 * (or a replay) can run that work at a chosen instant by passing the instant or overriding this.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
