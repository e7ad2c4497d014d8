/**
 * A small typed client for the eventplan API: openapi-fetch over the types generated from the
 * OpenAPI document (./schema.ts), so every operation (events, revisions, changes, venues, requests for
 * proposals and proposals, webhook endpoints, places) is a typed `GET`/`POST`/`PATCH`/`DELETE`, plus the habits every integration needs: follow pagination
 * (`listAllEvents`), read and tail the change feed (`changeFeed`), and back off when rate limited (a
 * 429 is retried after its `Retry-After`).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type Event = components['schemas']['Event'];
export type EventListItem = components['schemas']['EventListItem'];
export type CreateEventRequest = components['schemas']['CreateEventRequest'];
export type UpdateEventRequest = components['schemas']['UpdateEventRequest'];
export type Problem = components['schemas']['Problem'];
export type Change = components['schemas']['Change'];
export type ChangePage = components['schemas']['ChangePage'];
export type Revision = components['schemas']['Revision'];
export type RevisionPage = components['schemas']['RevisionPage'];
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type CreatedWebhookEndpoint = components['schemas']['CreatedWebhookEndpoint'];
export type CreateWebhookEndpointRequest = components['schemas']['CreateWebhookEndpointRequest'];
export type UpdateWebhookEndpointRequest = components['schemas']['UpdateWebhookEndpointRequest'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type Place = components['schemas']['Place'];
export type Venue = components['schemas']['Venue'];
export type VenueList = components['schemas']['VenueList'];
export type CreateVenueRequest = components['schemas']['CreateVenueRequest'];
export type UpdateVenueRequest = components['schemas']['UpdateVenueRequest'];
export type VenueRequest = components['schemas']['VenueRequest'];
export type VenueRequestStatus = components['schemas']['VenueRequestStatus'];
export type NewVenueRequest = components['schemas']['NewVenueRequest'];
export type Proposal = components['schemas']['Proposal'];
export type SubmitProposalRequest = components['schemas']['SubmitProposalRequest'];
export type AwardVenueRequest = components['schemas']['AwardVenueRequest'];
export type DeclineVenueRequest = components['schemas']['DeclineVenueRequest'];

export interface ChangeFeedOptions {
  /** A `nextCursor` you saved; without it the feed starts at the organization's first change. */
  after?: string;
  /** Changes per request, 1 to 100 (default 100). */
  pageSize?: number;
  /** Keep polling at the end of the feed instead of returning (default false). */
  follow?: boolean;
  /** The pause between polls once at the end, when following (default 1000 ms). */
  pollIntervalMs?: number;
  /** Ends the iteration (while following, the pending poll is cut short). */
  signal?: AbortSignal;
}

export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** How long the client waits before this retry, from `Retry-After`. */
  waitMs: number;
  response: Response;
}

export interface EventplanClientOptions {
  /** Where the API is, e.g. `http://127.0.0.1:3000` (paths already start with /v1). */
  baseUrl: string;
  /** Sent as `x-api-key` on every request. */
  apiKey: string;
  /** Retries of a 429 before it is returned to the caller (default 3). */
  maxRetries?: number;
  /** The longest `Retry-After` honoured (default 60 s); a 429 asking for longer is returned at once. */
  maxRetryDelayMs?: number;
  /** Called before each wait, e.g. to log it. */
  onRetry?: (retry: RetryInfo) => void;
  /** The fetch to use (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export interface EventplanClient extends Client<paths> {
  /** Every event of the organization, newest first, fetching page after page as it is iterated. */
  listAllEvents(options?: { pageSize?: number }): AsyncGenerator<EventListItem>;
  /**
   * The organization's changes in sequence (commit) order, one non-empty page at a time. Handle a
   * page's `data`, then save its `nextCursor`: passing it as `after` later resumes right after it.
   */
  changeFeed(options?: ChangeFeedOptions): AsyncGenerator<ChangePage>;
}

/** A refused request, with the problem details (RFC 9457) the API sent. */
export class EventplanError extends Error {
  readonly status: number;
  readonly problem: Problem | undefined;

  constructor(response: Response, body: unknown) {
    const problem = isProblem(body) ? body : undefined;
    super(problem ? `${response.status} ${problem.code}: ${problem.message}` : `HTTP ${response.status}`);
    this.name = 'EventplanError';
    this.status = response.status;
    this.problem = problem;
  }
}

export function createEventplanClient(options: EventplanClientOptions): EventplanClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    headers: { 'x-api-key': options.apiKey },
    fetch: retryingFetch(options),
  });
  return Object.assign(client, {
    listAllEvents: (listOptions?: { pageSize?: number }) => listAllEvents(client, listOptions),
    changeFeed: (feedOptions?: ChangeFeedOptions) => changeFeed(client, feedOptions),
  });
}

async function* changeFeed(
  client: Client<paths>,
  options: ChangeFeedOptions = {},
): AsyncGenerator<ChangePage> {
  const { pageSize = 100, follow = false, pollIntervalMs = 1000, signal } = options;
  let cursor = options.after;
  while (!signal?.aborted) {
    const { data, error, response } = await client.GET('/v1/changes', {
      params: { query: { limit: pageSize, ...(cursor === undefined ? {} : { after: cursor }) } },
      ...(signal ? { signal } : {}),
    });
    if (!data) throw new EventplanError(response, error);
    if (data.data.length > 0) yield data;
    // Present on every page, the last one too: the end of the feed is where the next poll starts.
    cursor = data.nextCursor;
    if (!data.hasMore) {
      if (!follow) return;
      await pause(pollIntervalMs, signal);
    }
  }
}

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

async function* listAllEvents(client: Client<paths>, { pageSize = 100 } = {}): AsyncGenerator<EventListItem> {
  for (let page = 1; ; page++) {
    const { data, error, response } = await client.GET('/v1/events', {
      params: { query: { page, limit: pageSize } },
    });
    if (!data) throw new EventplanError(response, error);
    yield* data.data;
    if (data.data.length < pageSize || page * pageSize >= data.total) return;
  }
}

/** A 429 means the request was not processed, so it is safe to send again, even a POST. */
function retryingFetch(options: EventplanClientOptions) {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const maxRetries = options.maxRetries ?? 3;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 60_000;
  return async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const response = await send(request.clone());
      if (response.status !== 429 || attempt > maxRetries) return response;
      const waitMs = retryAfterMs(response.headers.get('retry-after'));
      if (waitMs === undefined || waitMs > maxRetryDelayMs) return response;
      options.onRetry?.({ attempt, waitMs, response });
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  };
}

/** `Retry-After` as delay-seconds or as an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^[0-9]+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && 'code' in body && 'message' in body;
}
