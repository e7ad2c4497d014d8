/**
 * The interactive reference in a real browser: /docs from a listening app lists the operations, and a
 * "Try it out" call with an API key succeeds. Runs when Chromium is installed at /usr/bin/chromium
 * (`apt-get install -y chromium`; CI installs it), and says why it skipped otherwise (or fails, with
 * EVENTPLAN_REQUIRE_SERVICES=1).
 */
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, describeWithoutChromium, hasChromium } from '../helpers/services.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!hasChromium) {
  describeWithoutChromium('the interactive reference at /docs');
} else {
  describe('the interactive reference at /docs', () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let page: Page;
    const requested: string[] = [];
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      t = await startTestApp();
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });
      page = await browser.newPage();
      page.on('request', (request) => requested.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto(`${base}/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it('lists every operation of the document', async () => {
      const operations = await page.locator('.opblock .opblock-summary-path').allInnerTexts();
      expect(operations.map((path) => path.replace(/\u200b/g, '').trim()).sort()).toEqual([
        '/v1/changes',
        '/v1/events',
        '/v1/events',
        '/v1/events/{id}',
        '/v1/events/{id}',
        '/v1/events/{id}/questions',
        '/v1/events/{id}/questions/{questionId}/answer',
        '/v1/events/{id}/request-versions',
        '/v1/events/{id}/request-versions',
        '/v1/events/{id}/request-versions/{version}',
        '/v1/events/{id}/revisions',
        '/v1/events/{id}/revisions/{revision}',
        '/v1/events/{id}/venue-requests',
        '/v1/events/{id}/venue-requests',
        '/v1/events/{id}/venue-requests/{requestId}',
        '/v1/events/{id}/venue-requests/{requestId}',
        '/v1/events/{id}/venue-requests/{requestId}',
        '/v1/events/{id}/venue-requests/{requestId}/award',
        '/v1/events/{id}/venue-requests/{requestId}/decline',
        '/v1/events/{id}/venue-requests/{requestId}/proposals',
        '/v1/events/{id}/venue-requests/{requestId}/proposals',
        '/v1/events/{id}/venue-requests/{requestId}/revision-request',
        '/v1/openapi.json',
        '/v1/places',
        '/v1/venues',
        '/v1/venues',
        '/v1/venues/{id}',
        '/v1/venues/{id}',
        '/v1/venues/{id}',
        '/v1/webhook-endpoints',
        '/v1/webhook-endpoints',
        '/v1/webhook-endpoints/{id}',
        '/v1/webhook-endpoints/{id}',
        '/v1/webhook-endpoints/{id}',
        '/v1/webhook-endpoints/{id}/deliveries',
        '/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry',
        '/v1/webhook-endpoints/{id}/rotate-secret',
        '/v1/webhook-endpoints/{id}/test',
        // The deliveries themselves, from the document's `webhooks`.
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
      for (const operationId of [
        'listEvents',
        'createEvent',
        'getEvent',
        'updateEvent',
        'listEventRevisions',
        'getEventRevision',
        'listChanges',
        'getOpenApiDocument',
        'createWebhookEndpoint',
        'listWebhookEndpoints',
        'getWebhookEndpoint',
        'updateWebhookEndpoint',
        'deleteWebhookEndpoint',
        'rotateWebhookSecret',
        'listWebhookDeliveries',
        'retryWebhookDelivery',
        'testWebhookEndpoint',
        'createVenue',
        'listVenues',
        'getVenue',
        'updateVenue',
        'archiveVenue',
        'createVenueRequest',
        'listVenueRequests',
        'getVenueRequest',
        'deleteVenueRequest',
        'moveReplyDate',
        'submitProposal',
        'listProposals',
        'awardVenueRequest',
        'declineVenueRequest',
        'requestRevision',
        'listQuestions',
        'answerQuestion',
      ]) {
        await expect(page.locator('.opblock-summary-operation-id', { hasText: new RegExp(`^${operationId}$`) }).count()).resolves.toBe(1);
      }
    });

    it("shows eventplan's title and logo, not Swagger's", async () => {
      await expect(page.title()).resolves.toBe('eventplan API reference');
      const logo = page.locator('.topbar a img');
      await logo.waitFor({ timeout: 10_000 });
      await expect(logo.getAttribute('src')).resolves.toMatch(/^data:image\/svg\+xml;base64,/);
      const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
      expect(icon).toBe('/docs/static/theme/eventplan.svg');
      const served = await fetch(`${base}${icon}`);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('<svg');
    });

    it('runs "Try it out" on GET /v1/events with an API key and shows the 200', async () => {
      await page.locator('button.authorize').first().click();
      await page.locator('.modal-ux input[type="text"], .modal-ux input[type="password"]').first().fill(t.key);
      await page.locator('.modal-ux button.authorize').click();
      await page.locator('.modal-ux button.btn-done, .modal-ux button.close-modal').first().click();

      const operation = page.locator('#operations-Events-listEvents');
      await operation.locator('.opblock-summary').click();
      await operation.locator('button.try-out__btn').click();
      const answered = page.waitForResponse((response) => response.url().startsWith(`${base}/v1/events`));
      await operation.locator('button.execute').click();
      const response = await answered;
      expect(response.status()).toBe(200);
      expect(response.request().headers()['x-api-key']).toBe(t.key);

      // What the page shows: the live response's status code and body.
      const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor({ timeout: 10_000 });
      await expect(status.innerText()).resolves.toContain('200');
      await expect(operation.locator('.live-responses-table').innerText()).resolves.toContain('"total"');
    });

    it('loads nothing from outside the server, so it works offline', () => {
      expect(requested.length).toBeGreaterThan(3);
      expect(requested.filter((url) => !url.startsWith(base) && !url.startsWith('data:'))).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  });
}
