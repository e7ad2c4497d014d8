import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, DOCUMENT_FILE, renderClientTypes, renderDocument } from '../../scripts/openapi.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let document: Record<string, any>;

beforeAll(async () => {
  t = await startTestApp();
  const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(response.statusCode, response.body).toBe(200);
  document = response.json();
});
afterAll(() => t.close());

const EVENT_OPERATIONS = [
  ['get', '/v1/events', 'listEvents', 'Events'],
  ['post', '/v1/events', 'createEvent', 'Events'],
  ['get', '/v1/events/{id}', 'getEvent', 'Events'],
  ['patch', '/v1/events/{id}', 'updateEvent', 'Events'],
  ['get', '/v1/events/{id}/revisions', 'listEventRevisions', 'Changes'],
  ['get', '/v1/events/{id}/revisions/{revision}', 'getEventRevision', 'Changes'],
  ['get', '/v1/changes', 'listChanges', 'Changes'],
] as const;

const WEBHOOK_ENDPOINT_OPERATIONS = [
  'POST /v1/webhook-endpoints',
  'GET /v1/webhook-endpoints',
  'GET /v1/webhook-endpoints/{id}',
  'PATCH /v1/webhook-endpoints/{id}',
  'DELETE /v1/webhook-endpoints/{id}',
  'POST /v1/webhook-endpoints/{id}/rotate-secret',
  'GET /v1/webhook-endpoints/{id}/deliveries',
  'POST /v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry',
  'POST /v1/webhook-endpoints/{id}/test',
];

const VENUE_OPERATIONS = [
  'POST /v1/venues',
  'GET /v1/venues',
  'GET /v1/venues/{id}',
  'PATCH /v1/venues/{id}',
  'DELETE /v1/venues/{id}',
  'POST /v1/events/{id}/venue-requests',
  'GET /v1/events/{id}/venue-requests',
  'GET /v1/events/{id}/venue-requests/{requestId}',
  'PATCH /v1/events/{id}/venue-requests/{requestId}',
  'DELETE /v1/events/{id}/venue-requests/{requestId}',
  'POST /v1/events/{id}/venue-requests/{requestId}/proposals',
  'GET /v1/events/{id}/venue-requests/{requestId}/proposals',
  'POST /v1/events/{id}/venue-requests/{requestId}/revision-request',
  'GET /v1/events/{id}/request-versions',
  'GET /v1/events/{id}/request-versions/{version}',
  'POST /v1/events/{id}/request-versions',
  'GET /v1/events/{id}/questions',
  'POST /v1/events/{id}/questions/{questionId}/answer',
  'POST /v1/events/{id}/venue-requests/{requestId}/award',
  'POST /v1/events/{id}/venue-requests/{requestId}/decline',
];

const operation = (method: string, path: string) => document.paths[path][method];
const headerNames = (response: { headers?: Record<string, unknown> }) => Object.keys(response.headers ?? {});

describe('GET /v1/openapi.json', () => {
  it('serves the document without an API key, with a request id and no rate-limit bookkeeping', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/openapi.json',
      headers: { 'x-request-id': 'doc-1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['x-request-id']).toBe('doc-1');
    expect(response.json().openapi).toBe('3.1.0');
  });

  it('serves exactly the committed openapi/openapi.json', () => {
    expect(document).toEqual(JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')));
  });

  it('is also what /docs loads', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(document);
  });
});

describe('the committed copies', () => {
  it('openapi/openapi.json is up to date with the route schemas (run `npm run openapi` when this fails)', async () => {
    expect(await renderDocument()).toBe(readFileSync(DOCUMENT_FILE, 'utf8'));
  });

  it('the client types are up to date with the document (run `npm run openapi` when this fails)', async () => {
    const committed = readFileSync(DOCUMENT_FILE, 'utf8');
    expect(await renderClientTypes(committed)).toBe(readFileSync(CLIENT_TYPES_FILE, 'utf8'));
  });
});

describe('the document', () => {
  it('is OpenAPI 3.1 at interface version 1.0, served from the same origin', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('lists exactly the operations of the API, and none of the operations endpoints', () => {
    const listed = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual(
      [
        'GET /v1/openapi.json',
        'GET /v1/places',
        ...EVENT_OPERATIONS.map(([method, path]) => `${method.toUpperCase()} ${path}`),
        ...WEBHOOK_ENDPOINT_OPERATIONS,
        ...VENUE_OPERATIONS,
      ].sort(),
    );
  });

  it('describes each webhook delivery under the 3.1 `webhooks`, with the payload schema', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([
      'event.created',
      'event.status_changed',
      'event.updated',
      'proposal.submitted',
      'question.answered',
      'question.asked',
      'request.revised',
      'venue_request.awarded',
      'venue_request.declined',
      'venue_request.due_date_changed',
      'venue_request.no_response',
      'venue_request.reminded',
      'venue_request.revision_requested',
      'venue_request.sent',
      'venue_request.turned_down',
      'venue_request.withdrawn',
      'webhook.test',
    ]);
    expect(document.webhooks['event.updated'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WebhookPayload',
    });
  });

  it('declares x-api-key as an apiKey security scheme, required everywhere but on the document itself', () => {
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    expect(document.security).toEqual([{ apiKey: [] }]);
    expect(operation('get', '/v1/openapi.json').security).toEqual([]);
    for (const [method, path] of EVENT_OPERATIONS) {
      expect(operation(method, path).security, `${method} ${path}`).toBeUndefined();
      const parameters = operation(method, path).parameters.map((p: { name: string }) => p.name);
      expect(parameters, 'the key is a security scheme, not a parameter').not.toContain('x-api-key');
    }
  });

  it('gives every operation an id, a summary, a description, a tag and the x-request-id header', () => {
    for (const [method, path, operationId, tag] of EVENT_OPERATIONS) {
      const documented = operation(method, path);
      expect(documented.operationId).toBe(operationId);
      expect(documented.summary.length).toBeGreaterThan(0);
      expect(documented.description.length).toBeGreaterThan(0);
      expect(documented.tags).toEqual([tag]);
      expect(documented.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'x-request-id', required: false }),
      );
    }
  });

  it('documents 401, 429 and unexpected errors as problem+json on every event operation', () => {
    for (const [method, path] of EVENT_OPERATIONS) {
      const { responses } = operation(method, path);
      for (const status of ['401', '429', 'default']) {
        expect(Object.keys(responses[status].content), `${method} ${path} ${status}`).toEqual([
          'application/problem+json',
        ]);
      }
      expect(headerNames(responses['429'])).toContain('Retry-After');
      for (const [status, response] of Object.entries(responses)) {
        expect(headerNames(response as object), `${method} ${path} ${status}`).toContain('x-request-id');
        if (status !== 'default') {
          expect(headerNames(response as object)).toEqual(
            expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
          );
        }
      }
    }
  });

  it('documents every status the interface and the decisions name, with problem bodies', () => {
    const statuses = (method: string, path: string) => Object.keys(operation(method, path).responses);
    expect(statuses('get', '/v1/events')).toEqual(['200', '400', '401', '429', 'default']);
    expect(statuses('post', '/v1/events')).toEqual([
      '201',
      '400',
      '401',
      '409',
      '413',
      '415',
      '422',
      '429',
      'default',
    ]);
    expect(statuses('get', '/v1/events/{id}')).toEqual(['200', '304', '400', '401', '404', '429', 'default']);
    expect(statuses('patch', '/v1/events/{id}')).toEqual([
      '200',
      '400',
      '401',
      '404',
      '409',
      '412',
      '413',
      '415',
      '429',
      'default',
    ]);
    const refOf = (method: string, path: string, status: string, type = 'application/problem+json') =>
      JSON.stringify(operation(method, path).responses[status].content[type].schema);
    expect(refOf('patch', '/v1/events/{id}', '400')).toContain('#/components/schemas/ValidationProblem');
    expect(refOf('patch', '/v1/events/{id}', '409')).toContain(
      '#/components/schemas/AgendaSessionsOrphanedProblem',
    );
    expect(refOf('patch', '/v1/events/{id}', '409')).toContain('event_cancelled');
    expect(refOf('patch', '/v1/events/{id}', '412')).toContain('precondition_failed');
    expect(refOf('post', '/v1/events', '422')).toContain('idempotency_key_reused');
    expect(refOf('post', '/v1/events', '409')).toContain('idempotency_key_in_use');
    expect(document.components.schemas.ValidationProblem.required).toContain('errors');
    expect(document.components.schemas.AgendaSessionsOrphanedProblem.required).toContain('orphanedSessions');
  });

  it('documents the conditional and idempotency headers where they apply', () => {
    const parameter = (method: string, path: string, name: string) =>
      operation(method, path).parameters.find((p: { name: string }) => p.name === name);
    expect(parameter('get', '/v1/events/{id}', 'If-None-Match')).toMatchObject({ in: 'header' });
    expect(parameter('patch', '/v1/events/{id}', 'If-Match')).toMatchObject({ in: 'header' });
    expect(parameter('post', '/v1/events', 'Idempotency-Key')).toMatchObject({
      in: 'header',
      schema: { pattern: '^[\\x20-\\x7E]{1,255}$' },
    });
    const responses = (method: string, path: string) => operation(method, path).responses;
    expect(headerNames(responses('get', '/v1/events/{id}')['200'])).toContain('ETag');
    expect(headerNames(responses('get', '/v1/events/{id}')['304'])).toContain('ETag');
    expect(responses('get', '/v1/events/{id}')['304'].content).toBeUndefined();
    expect(headerNames(responses('patch', '/v1/events/{id}')['200'])).toContain('ETag');
    expect(headerNames(responses('post', '/v1/events')['201'])).toEqual(
      expect.arrayContaining(['Location', 'Idempotent-Replayed']),
    );
    expect(document.components.headers.ETag.required).toBe(true);
    expect(document.components.headers.IdempotentReplayed.required).toBeUndefined();
  });

  it('documents the request bodies, both media types of PATCH, with examples', () => {
    const create = operation('post', '/v1/events').requestBody.content;
    expect(Object.keys(create)).toEqual(['application/json']);
    expect(create['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateEventRequest' });
    const update = operation('patch', '/v1/events/{id}').requestBody.content;
    expect(Object.keys(update)).toEqual(['application/json', 'application/merge-patch+json']);
    for (const name of ['CreateEventRequest', 'UpdateEventRequest', 'Event', 'Problem', 'ValidationProblem']) {
      expect(document.components.schemas[name].examples.length, name).toBeGreaterThan(0);
    }
  });
});
