/**
 * What the dashboard's browser tests share: a listening real app (on the store TEST_BACKEND picks)
 * with the demo organization and passwords set, Debian's Chromium driven by playwright-core, and the
 * steps a person takes (sign in, open a page), plus axe-core and a watch on requests and the console.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { addGroupMember, createOrganization, createUser } from '../../src/app/organizations.js';
import { setPassword } from '../../src/app/people.js';
import { href } from '../../src/web/href.js';
import { CHROMIUM } from '../helpers/services.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

export { CHROMIUM, describeWithoutChromium, hasChromium } from '../helpers/services.js';

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
const AXE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));
let axeText: string | undefined;
const axeSource = () => {
  axeText ??= readFileSync(AXE, 'utf8');
  return axeText;
};

export const PASSWORD = 'correct horse battery staple';

export interface People {
  planner: { email: string; id: string };
  approver: { email: string; id: string };
  /** In the planner's group as a member, not an approver. */
  sibling: { email: string; id: string };
  /** In another organization altogether. */
  outsider: { email: string; id: string };
}

/** A browser window's size in CSS pixels: a desktop's by default, a phone's (375 px wide) for phone tests. */
export interface Viewport {
  width: number;
  height: number;
}

export const DESKTOP: Viewport = { width: 1280, height: 900 };
export const PHONE: Viewport = { width: 375, height: 812 };

export interface Dashboard {
  t: TestApp;
  base: string;
  browser: Browser;
  people: People;
  /** Every URL any page of this file requested, and every console error it logged. */
  requested: string[];
  consoleErrors: string[];
  /** A fresh browser context (its own cookies) signed in as `email`, on the event list. */
  signedIn(email: string, viewport?: Viewport): Promise<Page>;
  /** A fresh browser context, signed out; a desktop window unless `viewport` says otherwise. */
  newPage(viewport?: Viewport): Promise<Page>;
  /** Calls the JSON API with the planner's key. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read the API's JSON field by field
  api(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<{ status: number; json: any }>;
  /** Creates an event through the API (granted to the planner and their approver) and returns its id. */
  createEvent(body?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export async function openDashboard(): Promise<Dashboard> {
  const t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const { deps, demo } = t;
  const { id: siblingId } = await createUser(deps, {
    organizationId: demo.organizationId,
    email: 'sibling@example.com',
    name: 'Sibling',
  });
  await addGroupMember(deps, { groupId: demo.groupId, userId: siblingId, role: 'member' });
  const { id: otherOrg } = await createOrganization(deps, 'Other organization');
  const { id: outsiderId } = await createUser(deps, {
    organizationId: otherOrg,
    email: 'outsider@example.org',
    name: 'Outsider',
  });
  const people: People = {
    planner: { email: 'planner@example.com', id: demo.userId },
    approver: { email: 'approver@example.com', id: demo.approverId },
    sibling: { email: 'sibling@example.com', id: siblingId },
    outsider: { email: 'outsider@example.org', id: outsiderId },
  };
  for (const person of Object.values(people)) await setPassword(deps, person.id, PASSWORD);

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });
  const requested: string[] = [];
  const consoleErrors: string[] = [];
  const contexts: BrowserContext[] = [];

  const newPage = async (viewport = DESKTOP) => {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    context.setDefaultTimeout(8_000);
    const page = await context.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
    return page;
  };

  const api: Dashboard['api'] = async (method, url, body) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { 'x-api-key': t.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, json: response.body ? response.json() : undefined };
  };

  return {
    t,
    base,
    browser,
    people,
    requested,
    consoleErrors,
    newPage,
    async signedIn(email, viewport) {
      const page = await newPage(viewport);
      await signIn(page, base, email, PASSWORD);
      await expect(page.getByRole('heading', { level: 1, name: 'Events' }).isVisible()).resolves.toBe(true);
      return page;
    },
    api,
    async createEvent(body = {}) {
      const response = await api('POST', '/v1/events', { name: 'Sales kickoff', ...body });
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      return response.json.id as string;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser?.close();
      await t?.close();
    },
  };
}

/** Signs in through the form, as a person does, and waits for the page it leads to. */
export async function signIn(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}${href.signIn()}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
  await page.waitForLoadState('load');
}

/** Clicks and waits for the page the click leads to (a form post and its redirect). */
export async function clickAndLoad(page: Page, locator: ReturnType<Page['getByRole']>) {
  await Promise.all([page.waitForNavigation(), locator.click()]);
}

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core's WCAG 2.1 A/AA rules on the page as it is: the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // The page's Content-Security-Policy (rightly) refuses an injected <script>; evaluating axe's
  // source through the DevTools protocol is not subject to it.
  await page.evaluate(axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return (
      result.violations as unknown as Array<{
        id: string;
        impact: string;
        help: string;
        nodes: Array<{ target: string[] }>;
      }>
    )
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
  });
  return violations;
}

/** A realistic event body for the API, every part of the event page filled. */
export function fullEvent(extra: Record<string, unknown> = {}) {
  return {
    name: 'Regional summit',
    currency: 'EUR',
    formattedLocations: [
      { city: 'Lisbon', country: 'Portugal' },
      { city: 'Austin', state: 'TX', country: 'USA' },
    ],
    numPeople: 120,
    budgetBreakdown: { venue: 25000, fb: 8000.5, av: 1999.5 },
    flexibility: 'A week either way',
    decisionDeadline: '2030-03-01',
    accommodations: {
      '2030-05-01': { Single: 40, Double: 10 },
      '2030-05-02': { Single: 50, Suite: 2 },
      '2030-05-03': { Single: 20 },
    },
    meetingRoomDates: [{ startDate: '2030-05-01', endDate: '2030-05-03' }],
    numMeetingRoomsNeeded: 3,
    foodBeverageRequirements: 'Vegetarian options',
    meetingRooms: 'One plenary room, two breakouts',
    otherNotes: 'Near the airport',
    notesForVenue: 'Flexible on room layout',
    decisionFactors: ['Price', 'Other'],
    decisionFactorOtherText: 'Sustainability',
    additionalServices: ['Airport transfers'],
    agenda: [
      {
        title: 'Opening plenary',
        dates: ['2030-05-01'],
        startTime: '09:00',
        endTime: '10:30',
        capacity: 120,
        roomType: 'Theatre',
      },
      {
        title: 'Breakout sessions',
        dates: ['2030-05-02'],
        startTime: '11:00',
        endTime: '12:30',
        capacity: 40,
      },
      { title: 'Welcome coffee', dates: ['2030-05-01'], startTime: '08:15', endTime: '09:00' },
    ],
    ...extra,
  };
}

/**
 * The test summit of the phone and print checks: a 3-day summit for 120 people with a 4-night room
 * block and 5 sessions, every part of the brief filled, and an internal note that stays off paper.
 */
export function testSummit(extra: Record<string, unknown> = {}) {
  const session = (title: string, date: string, startTime: string, endTime: string, capacity: number) => ({
    title,
    dates: [date],
    startTime,
    endTime,
    capacity,
    roomType: capacity > 60 ? 'Theatre' : 'Classroom',
    avRequirements: ['Projector', 'Microphones'],
    fbRequirements: capacity > 60 ? ['Coffee break'] : [],
    notes: 'Doors open 15 minutes before.',
  });
  return fullEvent({
    name: 'Lisbon partner summit',
    accommodations: {
      '2030-04-30': { Single: 30, Double: 5 },
      '2030-05-01': { Single: 90, Double: 15, Suite: 2 },
      '2030-05-02': { Single: 90, Double: 15, Suite: 2 },
      '2030-05-03': { Single: 40, Double: 5 },
    },
    otherNotes: 'Internal: the CFO caps the venue line at 25k; do not share.',
    notesForVenue: 'Step-free access to every room; quiet room for prayer.',
    agenda: [
      session('Opening plenary', '2030-05-01', '09:00', '10:30', 120),
      session('Partner workshops', '2030-05-01', '11:00', '12:30', 40),
      session('Product roadmap', '2030-05-02', '09:00', '10:30', 120),
      session('Regional breakouts', '2030-05-02', '14:00', '16:00', 40),
      session('Closing and awards', '2030-05-03', '10:00', '12:00', 120),
    ],
    ...extra,
  });
}
