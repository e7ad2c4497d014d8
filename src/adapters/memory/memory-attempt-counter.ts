import type { AttemptCounter } from '../../ports/attempt-counter.js';

interface Window {
  count: number;
  endsAt: number;
}

/** Per-process attempt counts: right for one instance; several instances need the Redis store. */
export function createMemoryAttemptCounter(options: { now?: () => number } = {}): AttemptCounter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();
  let lastSweep = 0;

  const live = (key: string, time: number): Window | undefined => {
    const window = windows.get(key);
    if (window && window.endsAt <= time) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };

  return {
    async increment(key, windowMs) {
      const time = now();
      if (time - lastSweep >= 60_000) {
        // Ended windows can no longer matter; dropping them bounds the memory an attacker can fill.
        for (const [name, window] of windows) if (window.endsAt <= time) windows.delete(name);
        lastSweep = time;
      }
      let window = live(key, time);
      if (!window) {
        window = { count: 0, endsAt: time + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return { count: window.count, resetMs: window.endsAt - time };
    },
    async decrement(key) {
      const window = live(key, now());
      if (window && window.count > 0) window.count--;
    },
    async close() {
      windows.clear();
    },
  };
}
