/**
 * The loop both dispatchers run (webhook deliveries, mail): each round claims as many due items as
 * there are free slots and starts an attempt for each; it goes again at once after a full batch, and
 * otherwise waits for the poll interval or for `wake()` (a local commit, or a slot freed).
 */
export interface ClaimLoop {
  start(): void;
  /** Makes the next round start now. */
  wake(): void;
  /** One round: claim and start attempts. Resolves to the number of attempts started. */
  round(): Promise<number>;
  /** Resolves when every attempt started so far has been recorded. */
  idle(): Promise<void>;
  /** Stops claiming and waits for the attempts in flight. */
  stop(): Promise<void>;
}

export interface ClaimLoopOptions<Claim> {
  /** Attempts in flight at once. */
  concurrency: number;
  /** How long to wait for work when a round found none. */
  pollIntervalMs: number;
  /** Work every round does first, free slots or not (the webhooks turn new changes into deliveries). */
  beforeClaiming?(): Promise<void>;
  /** Claims at most `room` due items under a lease. */
  claim(room: number): Promise<readonly Claim[]>;
  /** Makes and records one attempt. */
  attempt(claim: Claim): Promise<void>;
  /** Called when a round or an attempt fails (the database is down, …); the loop keeps going. */
  onError?: (error: unknown) => void;
}

export function createClaimLoop<Claim>(options: ClaimLoopOptions<Claim>): ClaimLoop {
  const { concurrency, pollIntervalMs } = options;
  const inFlight = new Set<Promise<void>>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  function track(claim: Claim) {
    const work = options
      .attempt(claim)
      .catch((error) => options.onError?.(error))
      .finally(() => {
        inFlight.delete(work);
        // A free slot: more due work may be waiting.
        claimLoop.wake();
      });
    inFlight.add(work);
  }

  async function round(): Promise<number> {
    await options.beforeClaiming?.();
    const room = concurrency - inFlight.size;
    if (room <= 0 || !running) return 0;
    const claims = await options.claim(room);
    for (const claim of claims) track(claim);
    return claims.length;
  }

  function pause(ms: number): Promise<void> {
    if (woken) {
      woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  const claimLoop: ClaimLoop = {
    start() {
      if (running) return;
      running = true;
      loop = (async () => {
        while (running) {
          let started = 0;
          try {
            started = await round();
          } catch (error) {
            options.onError?.(error);
          }
          // A full batch means more may be due: go again at once.
          if (running && (started === 0 || inFlight.size >= concurrency)) await pause(pollIntervalMs);
        }
      })();
    },
    wake() {
      if (wakeUp) wakeUp();
      else woken = true;
    },
    async round() {
      const wasRunning = running;
      running = true;
      try {
        return await round();
      } finally {
        running = wasRunning;
      }
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      await claimLoop.idle();
    },
  };
  return claimLoop;
}
