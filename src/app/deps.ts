import type { Store } from '../ports/store.js';
import type { Clock, IdSource } from '../ports/system.js';

/** What every use case may use. */
export interface AppDeps {
  store: Store;
  clock: Clock;
  ids: IdSource;
}

/** The caller of an API request, established from its key. */
export interface Principal {
  organizationId: string;
  userId: string;
  keyId: string;
}

export const nowText = (deps: AppDeps): string => deps.clock.now().toISOString();
