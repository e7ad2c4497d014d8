import type { Limiter } from './access.js';
import type { Observers } from './observers.js';

/** What both floors are given: the rate limit, the access line and metrics, new ids and the clock. */
export interface FloorOptions {
  limiter: Limiter;
  observers: Observers;
  /** New ids: events, sessions, change records. */
  uuid: () => string;
  now: () => Date;
}
