/** How webhooks reach their endpoints: one POST per attempt, under the service's network policy. */
import type { AttemptOutcome } from '../domain/webhooks.js';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookTransport {
  /** Why this URL may not receive webhooks (scheme, address), or undefined when it may. */
  urlProblem(url: string): string | undefined;
  /** Sends one attempt: never follows a redirect, bounds time and the body read. Never throws. */
  send(request: WebhookRequest): Promise<AttemptOutcome>;
  close(): Promise<void>;
}
