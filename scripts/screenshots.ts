/**
 * Screenshots of every dashboard page for docs/dashboard.md, from a real run: `eventplan serve` on a
 * temporary SQLite database, entered the way a newcomer does (the invitation links printed at first
 * start), filled with a realistic event through the API and the dashboard's own forms, and photographed
 * in Debian's Chromium at 1280 px wide (the venue's page also at 375 px). Run with `npm run screenshots`;
 * writes docs/dashboard/*.png.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { href } from '../src/web/href.js';
import { venueHref } from '../src/web/venue-page/links.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'dashboard');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const PASSWORD = 'a long walk to the venue';

interface FirstStart {
  base: string;
  key: string;
  inviteUrl: string;
  approverInviteUrl: string;
}

/** Starts `eventplan serve` (from source) on a free port and reads what its first start prints. */
function serve(databasePath: string): Promise<{ server: ChildProcess; start: FirstStart }> {
  const server = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'entry.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databasePath, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const found: Partial<FirstStart> = {};
    server.once('exit', (code) => reject(new Error(`eventplan serve exited with ${code}`)));
    createInterface({ input: server.stdout! }).on('line', (line) => {
      let entry: Record<string, string>;
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (entry.key) found.key = entry.key;
      if (entry.try) found.base = /(https?:\/\/\S+)\/v1\/events/.exec(entry.try)?.[1];
      if (entry.inviteUrl) found.inviteUrl = entry.inviteUrl;
      if (entry.approverInviteUrl) found.approverInviteUrl = entry.approverInviteUrl;
      if (found.base && found.key && found.inviteUrl && found.approverInviteUrl) {
        resolve({ server, start: found as FirstStart });
      }
    });
  });
}

/** Runs an `eventplan` command (from source) on the same database, as an operator does; returns its stdout. */
function cli(databasePath: string, args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'entry.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databasePath, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
}

async function api(start: FirstStart, method: string, path: string, body?: unknown) {
  const response = await fetch(`${start.base}${path}`, {
    method,
    headers: { 'x-api-key': start.key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

const session = (title: string, dates: string[], startTime: string, endTime: string, extra = {}) => ({
  title,
  dates,
  startTime,
  endTime,
  ...extra,
});

/** The event most screenshots show: three nights in Lisbon or Barcelona, a budget, an agenda. */
const SUMMIT = {
  name: 'EMEA sales summit 2027',
  currency: 'EUR',
  formattedLocations: [
    { city: 'Lisbon', country: 'Portugal' },
    { city: 'Barcelona', state: 'Catalonia', country: 'Spain' },
  ],
  numPeople: 140,
  budgetBreakdown: { venue: 42000, fb: 18500, av: 6200, transport: 3800, activities: 5400.5 },
  flexibility: 'A week either way in May',
  decisionDeadline: '2027-01-29',
  accommodations: {
    '2027-05-11': { Single: 30, Double: 4 },
    '2027-05-12': { Single: 112, Double: 12, Suite: 3 },
    '2027-05-13': { Single: 108, Double: 12, Suite: 3 },
    '2027-05-14': { Single: 40, Double: 2 },
  },
  meetingRoomDates: [{ startDate: '2027-05-12', endDate: '2027-05-14' }],
  numMeetingRoomsNeeded: 4,
  foodBeverageRequirements: 'Vegetarian and gluten-free options at every meal; one seated dinner.',
  meetingRooms: 'A plenary for 140 in theatre style, three breakouts for 40.',
  otherNotes: 'Within 30 minutes of the airport.',
  notesForVenue: 'Step-free access to every room, please.',
  decisionFactors: ['Price', 'Location', 'Other'],
  decisionFactorOtherText: 'Sustainability certification',
  additionalServices: ['Airport transfers', 'Registration desk'],
  agenda: [
    session('Welcome coffee', ['2027-05-12'], '08:30', '09:00', { capacity: 140 }),
    session('Opening plenary', ['2027-05-12'], '09:00', '10:30', {
      capacity: 140,
      roomType: 'Plenary',
      avRequirements: ['Projector', 'Two handheld microphones'],
    }),
    session('Regional breakouts', ['2027-05-12', '2027-05-13'], '11:00', '12:30', {
      capacity: 40,
      roomType: 'Breakout',
    }),
    session('Customer panel', ['2027-05-13'], '14:00', '15:30', { capacity: 140, roomType: 'Plenary' }),
    session('Closing and awards', ['2027-05-14'], '10:00', '11:30', { capacity: 140, roomType: 'Plenary' }),
  ],
};

async function chooseSignIn(browser: Browser, inviteUrl: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(inviteUrl);
  await page.getByLabel('New password').fill(PASSWORD);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Set password' }).click()]);
  return page;
}

async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.waitForLoadState('load');
  const file = join(OUT, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? true });
  console.log(`${file} (${Math.round(statSync(file).size / 1024)} KB)`);
}

/** Rooms of the summit's block, each at `rate` by type, leaving out the `night.type` cells named. */
function offeredRooms(rate: Record<string, number>, leaveOut: string[] = []) {
  const rooms: Record<string, Record<string, { count: number; rate: number }>> = {};
  for (const [night, counts] of Object.entries(SUMMIT.accommodations)) {
    for (const [type, count] of Object.entries(counts)) {
      if (leaveOut.includes(`${night}.${type}`) || rate[type] === undefined) continue;
      rooms[night] = { ...rooms[night], [type]: { count, rate: rate[type] } };
    }
  }
  return rooms;
}

/**
 * The Proposals tab (D24): five more venues asked for the summit (sent at once, as it is already out to
 * venues), three proposals entered through the API (one in another currency), then the comparison, the
 * same on a phone, the award's confirmation and a decline refused without a reason.
 */
async function shootProposals(start: FirstStart, browser: Browser, planner: Page, summit: string) {
  const venues: Array<{ name: string; city: string; id?: string; requestId?: string }> = [
    { name: 'Hotel Miradouro', city: 'Lisbon' },
    { name: 'Casa do Rio', city: 'Lisbon' },
    { name: 'Hotel Arts Barcelona', city: 'Barcelona' },
    { name: 'Palácio Alfama', city: 'Lisbon' },
    { name: 'Eixample Suites', city: 'Barcelona' },
  ];
  for (const [index, venue] of venues.entries()) {
    venue.id = String(
      (await api(start, 'POST', '/v1/venues', { ...venue, email: `events${index}@venues.example` })).id,
    );
    venue.requestId = String(
      (await api(start, 'POST', `/v1/events/${summit}/venue-requests`, { venueId: venue.id })).id,
    );
  }
  const terms = { validUntil: '2027-01-22', depositPercent: 30, commissionPercent: 10 };
  const proposals = [
    {
      ...terms,
      rooms: offeredRooms({ Single: 168, Double: 195, Suite: 420 }),
      roomTaxPercent: 6,
      meetingRoomRental: 9000,
      foodBeverageMinimum: 16000,
      serviceChargePercent: 10,
      avEstimate: 5800,
      attritionPercent: 10,
      cutoffDate: '2027-04-10',
      cancellation: [
        { daysBefore: 120, percent: 25 },
        { daysBefore: 45, percent: 75 },
      ],
      holdOption: 'first',
      notes: 'River-view plenary with daylight; breakouts on the same floor.',
    },
    {
      ...terms,
      rooms: offeredRooms({ Single: 139, Double: 159 }, ['2027-05-12.Single', '2027-05-13.Single']),
      roomTaxPercent: 6,
      meetingRoomRental: 6500,
      foodBeverageMinimum: 14500,
      serviceChargePercent: 10,
      avEstimate: 6900,
      attritionPercent: 20,
      holdOption: 'second',
      notes: 'Can add 40 singles at a partner hotel next door.',
    },
    {
      ...terms,
      currency: 'USD',
      rooms: offeredRooms({ Single: 189, Double: 215, Suite: 460 }),
      roomTaxPercent: 5,
      meetingRoomRental: 11000,
      foodBeverageMinimum: 21000,
      avEstimate: 4500,
      cancellation: [{ daysBefore: 60, percent: 50 }],
    },
  ];
  for (const [index, body] of proposals.entries()) {
    await api(
      start,
      'POST',
      `/v1/events/${summit}/venue-requests/${venues[index]!.requestId}/proposals`,
      body,
    );
  }
  await planner.goto(`${start.base}${href.proposals(summit)}`);
  await shoot(planner, 'proposals');
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 1 });
  await phone.addCookies(await planner.context().cookies());
  const small = await phone.newPage();
  await small.goto(`${start.base}${href.proposals(summit)}`);
  await shoot(small, 'proposals-phone', { fullPage: false });
  await planner.goto(`${start.base}${href.awardProposal(summit, venues[0]!.requestId!)}`);
  await shoot(planner, 'award', { fullPage: false });
  await planner.goto(`${start.base}${href.declineProposal(summit, venues[1]!.requestId!)}`);
  await Promise.all([
    planner.waitForNavigation(),
    planner.getByRole('button', { name: 'Decline proposal' }).click(),
  ]);
  await shoot(planner, 'decline-error', { fullPage: false });
}

/** Clicks the button named `name` in the page's main region and waits for the page it leads to. */
async function press(page: Page, name: string | RegExp) {
  await Promise.all([page.waitForNavigation(), page.getByRole('main').getByRole('button', { name }).click()]);
}

/**
 * A request that lives (D26–D28), on the summit already out to venues: 20 more attendees saved and
 * waiting as a change not sent, its confirmation, the venue's page after the new version, a venue's
 * question and the planner's answer, a reply date moved, and a proposal answering the older version.
 */
async function shootLivingRequest(
  start: FirstStart,
  planner: Page,
  venuePage: Page,
  token: string,
  summit: string,
) {
  await api(start, 'PATCH', `/v1/events/${summit}`, { numPeople: 160 });
  await planner.goto(`${start.base}${href.event(summit)}`);
  const unsent = join(OUT, 'event-unsent-changes.png');
  await planner.locator('aside .panel').screenshot({ path: unsent });
  console.log(`${unsent} (${Math.round(statSync(unsent).size / 1024)} KB)`);
  await planner.goto(`${start.base}${href.sendChanges(summit)}`);
  await planner
    .getByLabel('Message to the venues')
    .fill('We expect 20 more guests: please check your room offer.');
  await shoot(planner, 'send-changes', { fullPage: false });
  await press(planner, /^Send the changes to/);

  await venuePage.goto(`${start.base}${venueHref.request(token)}`);
  await shoot(venuePage, 'venue-page-updated', { fullPage: false });
  await venuePage
    .getByLabel('Your question')
    .fill('Can the breakout rooms be on the same floor as the plenary?');
  await press(venuePage, 'Ask the planner');
  await planner.goto(`${start.base}${href.event(summit)}`);
  const questions = join(OUT, 'event-questions.png');
  await planner.locator('#questions').screenshot({ path: questions });
  console.log(`${questions} (${Math.round(statSync(questions).size / 1024)} KB)`);
  await planner
    .getByLabel('Answer', { exact: true })
    .fill('Yes: the second floor holds the plenary and all three breakouts.');
  await planner.getByLabel('Every venue asked, without saying who asked').check();
  await press(planner, /^Send the answer/);
  await venuePage.goto(`${start.base}${venueHref.request(token)}#questions`);
  const venueQuestions = join(OUT, 'venue-questions.png');
  await venuePage.locator('#questions').screenshot({ path: venueQuestions });
  console.log(`${venueQuestions} (${Math.round(statSync(venueQuestions).size / 1024)} KB)`);

  const requests = (await api(start, 'GET', `/v1/events/${summit}/venue-requests`)) as {
    data: Array<{ id: string; status: string }>;
  };
  const open = requests.data.find((request) => request.status === 'viewed' || request.status === 'sent')!;
  await planner.goto(`${start.base}${href.moveReplyDate(summit, open.id)}`);
  await shoot(planner, 'move-reply-date', { fullPage: false });
  await planner.goto(`${start.base}${href.proposals(summit)}`);
  const older = join(OUT, 'proposals-older-version.png');
  await planner.locator('tr#row-requestVersion').screenshot({ path: older });
  console.log(`${older} (${Math.round(statSync(older).size / 1024)} KB)`);
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'eventplan-screenshots-'));
  mkdirSync(OUT, { recursive: true });
  const databasePath = join(dir, 'eventplan.db');
  const { server, start } = await serve(databasePath);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars'],
  });
  try {
    // Events through the API (the planner's key): granted to the planner and their approver.
    const summit = String((await api(start, 'POST', '/v1/events', SUMMIT)).id);
    await api(start, 'POST', '/v1/events', {
      name: 'Engineering offsite',
      currency: 'USD',
      formattedLocations: [{ city: 'Denver', state: 'CO', country: 'USA' }],
      numPeople: 60,
      budgetBreakdown: { venue: 15000, fb: 9000 },
      decisionDeadline: '2027-02-15',
      meetingRoomDates: [{ startDate: '2027-04-20', endDate: '2027-04-22' }],
    });
    const kickoff = String(
      (
        await api(start, 'POST', '/v1/events', {
          name: 'Partner kickoff',
          currency: 'GBP',
          formattedLocations: [{ city: 'Manchester', country: 'UK' }],
          numPeople: 80,
          budgetBreakdown: { venue: 12000 },
        })
      ).id,
    );
    const bare = String((await api(start, 'POST', '/v1/events', { name: 'Board retreat (idea)' })).id);

    // In through the links the first start printed, as a newcomer does.
    const signedOut = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitor = await signedOut.newPage();
    await visitor.goto(`${start.base}${href.events()}`);
    await shoot(visitor, 'sign-in', { fullPage: false });
    const planner = await chooseSignIn(browser, start.inviteUrl);
    const approver = await chooseSignIn(browser, start.approverInviteUrl);

    // The planner asks for approval of the kickoff; the approver will see it pending.
    await planner.goto(`${start.base}${href.event(kickoff)}`);
    await Promise.all([
      planner.waitForNavigation(),
      planner.getByRole('button', { name: 'Request approval' }).click(),
    ]);
    await Promise.all([
      planner.waitForNavigation(),
      planner.getByRole('main').getByRole('button', { name: 'Request approval' }).click(),
    ]);
    await shoot(planner, 'checklist-blocked', { fullPage: false });
    await api(start, 'PATCH', `/v1/events/${kickoff}`, {
      decisionDeadline: '2027-01-15',
      meetingRoomDates: [{ startDate: '2027-03-02', endDate: '2027-03-03' }],
    });
    await planner.goto(`${start.base}${href.move(kickoff, 'request_approval')}`);
    await shoot(planner, 'move-confirmation', { fullPage: false });
    await Promise.all([
      planner.waitForNavigation(),
      planner.getByRole('main').getByRole('button', { name: 'Request approval' }).click(),
    ]);

    await planner.goto(`${start.base}${href.events()}`);
    await shoot(planner, 'event-list');
    await planner.goto(`${start.base}${href.event(summit)}`);
    await shoot(planner, 'event-page');
    // The same page on a phone (375 px) and as printed (print media at A4's width, 794 px).
    const cookies = await planner.context().cookies();
    const phoneContext = await browser.newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 1,
    });
    await phoneContext.addCookies(cookies);
    const eventOnPhone = await phoneContext.newPage();
    await eventOnPhone.goto(`${start.base}${href.event(summit)}`);
    await shoot(eventOnPhone, 'event-page-phone', { fullPage: false });
    const paperContext = await browser.newContext({
      viewport: { width: 794, height: 1123 },
      deviceScaleFactor: 1,
    });
    await paperContext.addCookies(cookies);
    const eventOnPaper = await paperContext.newPage();
    await eventOnPaper.emulateMedia({ media: 'print' });
    await eventOnPaper.goto(`${start.base}${href.event(summit)}`);
    await shoot(eventOnPaper, 'event-page-print');
    await phoneContext.close();
    await paperContext.close();
    await planner.goto(`${start.base}${href.event(bare)}`);
    await shoot(planner, 'event-page-checklist', { fullPage: false });
    await planner.goto(`${start.base}${href.editEvent(summit)}`);
    await planner.getByRole('textbox', { name: 'Name', exact: true }).fill('');
    await planner.getByLabel('Food and beverage', { exact: true }).fill('18500.755');
    await Promise.all([planner.waitForNavigation(), planner.getByRole('button', { name: 'Save' }).click()]);
    await shoot(planner, 'edit-error', { fullPage: false });
    await planner.goto(`${start.base}${href.editEvent(summit)}`);
    await shoot(planner, 'edit');
    await planner.goto(`${start.base}${href.rooms(summit)}?from=2027-05-15&to=2027-05-15`);
    await shoot(planner, 'rooms');
    await planner.goto(`${start.base}${href.agenda(summit)}`);
    await shoot(planner, 'agenda');
    await planner.goto(`${start.base}${href.newEvent()}`);
    await shoot(planner, 'new-event', { fullPage: false });
    await planner.goto(`${start.base}${href.sessions()}`);
    await shoot(planner, 'sessions', { fullPage: false });
    // The account page, once the planner has switched off the mails about venues turning down.
    await planner.goto(`${start.base}${href.account()}`);
    await planner.getByRole('checkbox', { name: 'Venues turning down' }).uncheck();
    await Promise.all([
      planner.waitForNavigation(),
      planner.getByRole('button', { name: 'Save mail settings' }).click(),
    ]);
    await shoot(planner, 'account', { fullPage: false });

    await approver.goto(`${start.base}${href.event(kickoff)}`);
    await shoot(approver, 'approver-event-page', { fullPage: false });
    await approver.goto(`${start.base}${href.move(kickoff, 'return_to_draft')}`);
    await shoot(approver, 'return-to-draft', { fullPage: false });
    await approver.goto(`${start.base}${href.event('00000000-0000-4000-8000-000000000000')}`);
    await shoot(approver, 'not-found', { fullPage: false });

    // The venue's page (D22): a demo venue shortlisted on the summit, the request sent, its link
    // opened from the venue's mail as the venue does, without an account.
    const venues = (await api(start, 'GET', '/v1/venues')) as {
      data: Array<{ id: string; email: string; name: string }>;
    };
    const venue = venues.data[0]!;
    await api(start, 'POST', `/v1/events/${summit}/venue-requests`, { venueId: venue.id });
    cli(databasePath, ['event', 'status', '--event', summit, '--to', 'wait_for_proposals']);
    const mails = JSON.parse(cli(databasePath, ['mail', 'list', '--to', venue.email, '--json'])) as {
      mails: Array<{ text: string | null }>;
    };
    const token = mails.mails.map((mail) => /\/rfp\/(\w+)/.exec(mail.text ?? '')?.[1]).find(Boolean)!;
    const venueContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const venuePage = await venueContext.newPage();
    await venuePage.goto(`${start.base}${venueHref.request(token)}`);
    await shoot(venuePage, 'venue-page');
    await venuePage.goto(`${start.base}${venueHref.proposal(token)}`);
    await venuePage.getByLabel('Valid until').fill('2026-01-01');
    await venuePage.getByLabel('Single rooms, night of Wed, May 12, 2027').fill('110');
    await venuePage.getByLabel('Single rate per room, night of Wed, May 12, 2027').fill('one fifty');
    await Promise.all([
      venuePage.waitForNavigation(),
      venuePage.getByRole('button', { name: 'Send the proposal' }).click(),
    ]);
    await shoot(venuePage, 'venue-proposal-error', { fullPage: false });
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 1 });
    const venuePhone = await phone.newPage();
    await venuePhone.goto(`${start.base}${venueHref.request(token)}`);
    await shoot(venuePhone, 'venue-page-phone', { fullPage: false });

    // The planner's side of venues (D20, D21): the directory, a refused venue form, the venue picker
    // of the summit (sent, so a venue added is asked at once), its venue list and a withdrawal's
    // confirmation.
    await planner.goto(`${start.base}${href.venues()}`);
    await shoot(planner, 'venues', { fullPage: false });
    await planner.goto(`${start.base}${href.newVenue()}`);
    await planner.getByLabel('Email').fill('events at quayside');
    await planner.getByLabel('Website').fill('http://quayside.example');
    await planner.getByLabel('Guest rooms').fill('-20');
    await Promise.all([
      planner.waitForNavigation(),
      planner.getByRole('main').getByRole('button', { name: 'Add venue' }).click(),
    ]);
    await shoot(planner, 'venue-form-error', { fullPage: false });
    const second = venues.data[1]!;
    await planner.goto(`${start.base}${href.addEventVenue(summit)}`);
    await planner.getByRole('radio', { name: new RegExp(second.name) }).check();
    await shoot(planner, 'add-venue', { fullPage: false });
    await Promise.all([
      planner.waitForNavigation(),
      planner.getByRole('main').getByRole('button', { name: 'Send the request' }).click(),
    ]);
    const list = join(OUT, 'event-venues.png');
    await planner.locator('#venues').screenshot({ path: list });
    console.log(`${list} (${Math.round(statSync(list).size / 1024)} KB)`);
    const requests = (await api(start, 'GET', `/v1/events/${summit}/venue-requests`)) as {
      data: Array<{ id: string; venue: { id: string } }>;
    };
    const asked = requests.data.find((request) => request.venue.id === second.id)!;
    await planner.goto(`${start.base}${href.withdrawRequest(summit, asked.id)}`);
    await shoot(planner, 'withdraw-request', { fullPage: false });

    // The Proposals tab (D24): the summit is now sent, so the venues added next are asked at once.
    await shootProposals(start, browser, planner, summit);
    // A request that lives (D26–D28): changes sent as a version, a question answered, a date moved.
    await shootLivingRequest(start, planner, venuePage, token, summit);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
