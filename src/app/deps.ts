import type { MailSettings } from '../domain/mail.js';
import type { Store } from '../ports/store.js';
import type { Clock, IdSource } from '../ports/system.js';

/** What every use case may use. */
export interface AppDeps {
  store: Store;
  clock: Clock;
  ids: IdSource;
  /** Who mail comes from and where its links lead (D25); unset: mailSettings()'s defaults. */
  mail?: MailSettings;
}

/** The caller of an API request, established from its key. */
export interface Principal {
  organizationId: string;
  userId: string;
  keyId: string;
}

export const nowText = (deps: AppDeps): string => deps.clock.now().toISOString();
