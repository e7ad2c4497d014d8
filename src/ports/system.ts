/** The outside world the use cases need: time and randomness. */
export interface Clock {
  now(): Date;
}

export interface IdSource {
  uuid(): string;
  /** A random string of base62 characters. */
  token(length: number): string;
}
