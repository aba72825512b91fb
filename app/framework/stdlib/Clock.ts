/**
 * The current time, as a service: code that decides by time (lock-outs, rate limits, expiries)
 * asks the clock, so tests can move time instead of waiting for it.
 * `@inject(FrameworkServices.Clock) private readonly clock: Clock`.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = Object.freeze({ now: () => new Date() });
