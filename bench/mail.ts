/**
 * Mail on this machine (D25): latency from the commit of a change that carries a mail to the SMTP
 * server accepting it, and dispatcher throughput draining a backlog. The SMTP server (smtp-server)
 * runs in this process; the dispatcher uses the real nodemailer transport over loopback TCP.
 *   node --import tsx bench/mail.ts [sqlite|postgres] [--latency=300] [--backlog=2000] [--concurrency=4]
 *     [--versions=10] [--venues=50]
 * and a version of a request (D26) sent to `venues` open requests: from its commit to the SMTP server
 * accepting the first and the last of its mails, over `versions` sends.
 * (postgres: a schema of its own in TEST_DATABASE_URL, dropped afterwards)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { createSmtpTransport } from '../src/adapters/mail/smtp-transport.js';
import { openPostgresStore } from '../src/adapters/postgres/postgres-store.js';
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.js';
import { randomIds, systemClock } from '../src/adapters/system.js';
import { changeEvent, OPERATOR } from '../src/app/change-event.js';
import { describeChange } from '../src/app/change-log.js';
import type { AppDeps } from '../src/app/deps.js';
import { eventDocument } from '../src/app/etag.js';
import { UPDATE_DETAILS } from '../src/app/event-changes.js';
import { apiKeyRequester, changeEventStatus, createEvent } from '../src/app/events.js';
import { prepareMail, queueMails } from '../src/app/mail.js';
import { createMailDispatcher, wakingOnQueuedMail } from '../src/app/mail-dispatcher.js';
import { createDemo } from '../src/app/organizations.js';
import { sendRequestVersion } from '../src/app/request-versions.js';
import { addVenueRequest } from '../src/app/venue-requests.js';
import { createVenue } from '../src/app/venues.js';
import { composeMail } from '../src/domain/mail-content.js';

const backend = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const option = (name: string, fallback: number) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const latencyCount = option('latency', 300);
const backlog = option('backlog', 2000);
const concurrency = option('concurrency', 4);
const versionSends = option('versions', 10);
const versionVenues = option('venues', 50);

// The database: a fresh SQLite file, or a fresh PostgreSQL schema.
const dir = mkdtempSync(join(tmpdir(), 'eventplan-bench-mail-'));
let dropSchema = async () => {};
let databaseUrl = '';
if (backend === 'postgres') {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is needed for the postgres run');
  const schema = `eventplan_bench_mail_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  databaseUrl = url.toString();
  dropSchema = async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.end();
  };
}
const opened =
  backend === 'postgres'
    ? openPostgresStore({ url: databaseUrl, poolSize: 10 })
    : openSqliteStore({ path: join(dir, 'bench.db') });
await opened.migrate();

// The SMTP server: accepts everything, and notes when each message was accepted.
let accepted = 0;
let onAccept: (() => void) | undefined;
const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      accepted += 1;
      onAccept?.();
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const port = (smtp.server.address() as AddressInfo).port;

const from = { address: 'events@eventplan.example', name: 'eventplan' };
const transport = createSmtpTransport({ url: `smtp://127.0.0.1:${port}`, maxConnections: concurrency });
let wake = () => {};
// As the server runs it: a commit that carries mail wakes the dispatcher.
const store = wakingOnQueuedMail(opened, () => wake());
const deps: AppDeps = {
  store,
  clock: systemClock,
  ids: randomIds,
  mail: { from, publicBaseUrl: 'https://events.example.com' },
};
const demo = await createDemo(deps);
const principal = { organizationId: demo.organizationId, userId: demo.userId, keyId: demo.keyId };
const dispatcher = createMailDispatcher(deps, { transport, from, retrySchedule: [1000], concurrency });
wake = () => dispatcher.wake();

const mailFor = (index: number) =>
  prepareMail(
    deps,
    demo.organizationId,
    composeMail({
      to: { address: `venue-${index}@example.com`, name: `Venue ${index}` },
      replyTo: { address: 'planner@example.com', name: 'Planner' },
      content: {
        subject: `Request for proposal ${index}`,
        greeting: `Hello Venue ${index},`,
        paragraphs: ['Demo organization asks for a proposal for its board offsite, 12–14 May 2027.'],
        facts: [
          { label: 'Event', value: 'Board offsite' },
          { label: 'Respond by', value: '1 April 2027' },
        ],
        action: { label: 'Open the request', url: `https://events.example.com/rfp/${randomIds.token(43)}` },
      },
    }),
  );

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * p) - 1)]!;

// Latency: an event update carrying one mail, from its commit to the SMTP server accepting the mail.
const { id: eventId } = await createEvent(deps, principal, { name: 'Board offsite' });
dispatcher.start();
const samples: number[] = [];
for (let i = 0; i < latencyCount; i++) {
  const arrived = new Promise<void>((resolve) => {
    onAccept = resolve;
  });
  await store.events.update(demo.organizationId, eventId, (current) => {
    const next = {
      ...current,
      details: { ...current.details, name: `Board offsite ${i}`, updatedAt: new Date().toISOString() },
    };
    return {
      event: next,
      change: describeChange(deps, { type: 'operator' }, current.details, next.details),
      document: eventDocument(next.details),
      mails: [mailFor(i)],
    };
  });
  const committed = performance.now();
  await arrived;
  samples.push(performance.now() - committed);
}
onAccept = undefined;

// A version of a request (D26): an event out to `versionVenues` venues, its attendees changed, then the
// changes sent; each open request is mailed in the version's transaction.
const planner = apiKeyRequester(principal);
const { id: sourced } = await createEvent(deps, principal, { name: 'Partner summit', numPeople: 100 });
for (let i = 0; i < versionVenues; i++) {
  const venue = await createVenue(deps, planner, {
    name: `Venue ${i}`,
    email: `venue-${i}@venues.example`,
    city: 'Lisbon',
  });
  await addVenueRequest(deps, planner, sourced, { venueId: venue.id });
}
const sentOut = accepted + versionVenues;
await changeEventStatus(deps, sourced, 'wait_for_proposals');
while (accepted < sentOut) await new Promise((resolve) => setTimeout(resolve, 5));
const firstMail: number[] = [];
const lastMail: number[] = [];
for (let i = 0; i < versionSends; i++) {
  await changeEvent(deps, OPERATOR, sourced, UPDATE_DETAILS, { numPeople: 101 + i });
  const before = accepted;
  let first = 0;
  const all = new Promise<void>((resolve) => {
    onAccept = () => {
      if (first === 0) first = performance.now();
      if (accepted - before >= versionVenues) resolve();
    };
  });
  await sendRequestVersion(deps, OPERATOR, sourced, {});
  const committed = performance.now();
  await all;
  firstMail.push(first - committed);
  lastMail.push(performance.now() - committed);
}
onAccept = undefined;
await dispatcher.stop();

// Throughput: a backlog queued while the dispatcher was stopped, then drained (sent and recorded).
for (let i = 0; i < backlog; i += 100) {
  await queueMails(
    deps,
    Array.from({ length: Math.min(100, backlog - i) }, (_, j) => mailFor(i + j)),
  );
}
const began = performance.now();
dispatcher.start();
while ((await opened.mail.stats()).pending > 0) await new Promise((resolve) => setTimeout(resolve, 5));
const seconds = (performance.now() - began) / 1000;
await dispatcher.stop();

console.log(
  JSON.stringify({
    backend,
    concurrency,
    latencyMs: {
      mails: samples.length,
      p50: percentile(samples, 0.5).toFixed(1),
      p99: percentile(samples, 0.99).toFixed(1),
      max: Math.max(...samples).toFixed(1),
    },
    throughput: { mails: backlog, seconds: seconds.toFixed(2), perSecond: Math.round(backlog / seconds) },
    versionMailsMs: {
      sends: versionSends,
      venues: versionVenues,
      firstP50: percentile(firstMail, 0.5).toFixed(1),
      lastP50: percentile(lastMail, 0.5).toFixed(1),
      lastMax: Math.max(...lastMail).toFixed(1),
    },
    accepted,
  }),
);
await transport.close();
await new Promise<void>((resolve) => smtp.close(() => resolve()));
await opened.close();
await dropSchema();
rmSync(dir, { recursive: true, force: true });
