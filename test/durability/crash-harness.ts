/**
 * Crash durability, the same for every backend: run `eventplan serve` as a process, write to it from
 * several concurrent clients, kill it with SIGKILL at a random moment, check the database, start it
 * again, and verify that every acknowledged write is there and that no write is half-applied.
 *
 * Each write is an update that moves several things at once (name, notes, people, budget, and one
 * more agenda session), so a half-applied write would show as an event whose parts disagree.
 */
import { expect } from 'vitest';
import { listeningUrl, runEventplan, type ServerProcess } from '../ops/server-process.js';

export interface CrashOptions {
  databaseUrl: string;
  key: string;
  cycles: number;
  writers: number;
  /** Extra environment for the server (e.g. pool settings). */
  env?: Record<string, string>;
  /** Checks the database while no server runs (integrity, grants); returns problems found. */
  checkStorage(eventIds: string[]): Promise<string[]>;
  seed?: number;
}

export interface CrashReport {
  cycles: number;
  kills: number;
  acknowledgedWrites: number;
  acknowledgedCreates: number;
  verifiedEvents: number;
  inFlightApplied: number;
  inFlightLost: number;
}

interface Tracked {
  /** The last version the server acknowledged (0 = created). */
  acked: number;
  /** A version sent whose answer never came (the kill cut it), if any. */
  inFlight?: number;
  writer: number;
}

/** The event as written at version `v` by `patchFor`: every part derives from v. */
function expectedAt(writer: number, version: number) {
  return {
    name: `w${writer} v${version}`,
    otherNotes: `v${version}`,
    numPeople: version,
    budgetBreakdown: version === 0 ? {} : { venue: version },
    agendaTitles: Array.from({ length: version }, (_, index) => `s${index + 1}`),
  };
}

const DAY = '2027-06-01';

function patchFor(writer: number, version: number) {
  return {
    name: `w${writer} v${version}`,
    otherNotes: `v${version}`,
    numPeople: version,
    budgetBreakdown: { venue: version },
    agendaOperations: [
      { op: 'add', session: { title: `s${version}`, dates: [DAY], startTime: '09:00', endTime: '10:00' } },
    ],
  };
}

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function send(base: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, body: await response.text() };
}

/** Every event the key's organization holds, through the list endpoint. */
async function listIds(base: string, key: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const response = await send(base, key, 'GET', `/v1/events?limit=100&page=${page}`);
    expect(response.status).toBe(200);
    const data = JSON.parse(response.body).data as Array<{ id: string }>;
    ids.push(...data.map((item) => item.id));
    if (data.length < 100) return ids;
  }
}

export async function runCrashCycles(options: CrashOptions): Promise<CrashReport> {
  const chance = random(options.seed ?? 20_260_601);
  const tracked = new Map<string, Tracked>();
  const report: CrashReport = {
    cycles: 0,
    kills: 0,
    acknowledgedWrites: 0,
    acknowledgedCreates: 0,
    verifiedEvents: 0,
    inFlightApplied: 0,
    inFlightLost: 0,
  };
  const env = {
    PORT: '0',
    DATABASE_URL: options.databaseUrl,
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...options.env,
  };
  let server: ServerProcess | undefined;
  const touched = new Set<string>();

  try {
    for (let cycle = 0; cycle <= options.cycles; cycle++) {
      server = runEventplan(env);
      const base = await listeningUrl(server);
      // Events the last cycle wrote are read back each time; all of them at the start and at the end.
      await verify(
        base,
        options.key,
        tracked,
        report,
        cycle === 0 || cycle === options.cycles ? undefined : touched,
      );
      if (cycle === options.cycles) break;
      touched.clear();

      // Writers: each owns its events and writes them one at a time, so each event has at most one
      // write in flight when the kill comes.
      let killed = false;
      const writer = async (index: number) => {
        const owned = [...tracked.entries()].filter(([, entry]) => entry.writer === index).map(([id]) => id);
        while (!killed) {
          try {
            if (owned.length < 2 || chance() < 0.03) {
              const response = await send(base, options.key, 'POST', '/v1/events', {
                name: `w${index} v0`,
                otherNotes: 'v0',
                numPeople: 0,
                meetingRoomDates: [{ startDate: DAY, endDate: DAY }],
              });
              if (response.status !== 201)
                throw new Error(`create answered ${response.status}: ${response.body}`);
              const id = JSON.parse(response.body).id as string;
              tracked.set(id, { acked: 0, writer: index });
              owned.push(id);
              report.acknowledgedCreates++;
              continue;
            }
            const id = owned[Math.floor(chance() * owned.length)]!;
            touched.add(id);
            const entry = tracked.get(id)!;
            const version = entry.acked + 1;
            entry.inFlight = version;
            const response = await send(
              base,
              options.key,
              'PATCH',
              `/v1/events/${id}`,
              patchFor(index, version),
            );
            if (response.status !== 200)
              throw new Error(`update answered ${response.status}: ${response.body}`);
            entry.acked = version;
            entry.inFlight = undefined;
            report.acknowledgedWrites++;
          } catch (error) {
            if (killed) return;
            throw error;
          }
        }
      };
      const writers = Array.from({ length: options.writers }, (_, index) => writer(index));
      const running = Promise.allSettled(writers);
      await new Promise((done) => setTimeout(done, 150 + Math.floor(chance() * 1200)));
      killed = true;
      server.child.kill('SIGKILL');
      await server.exited;
      report.kills++;
      for (const outcome of await running) {
        if (outcome.status === 'rejected') throw outcome.reason;
      }

      const problems = await options.checkStorage([...tracked.keys()]);
      expect(problems, `storage after kill ${cycle + 1}`).toEqual([]);
      report.cycles++;
    }
  } finally {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  return report;
}

/** After a restart: every acknowledged write is there, in-flight ones are all there or not at all. */
async function verify(
  base: string,
  key: string,
  tracked: Map<string, Tracked>,
  report: CrashReport,
  only?: Set<string>,
) {
  const present = new Set(await listIds(base, key));
  for (const id of tracked.keys()) expect(present.has(id), `acknowledged event ${id} is missing`).toBe(true);
  for (const id of present) {
    if (only && tracked.has(id) && !only.has(id)) continue;
    const response = await send(base, key, 'GET', `/v1/events/${id}`);
    expect(response.status).toBe(200);
    const event = JSON.parse(response.body);
    const entry = tracked.get(id);
    if (!entry) {
      // A create the kill cut off before its answer: either absent or whole.
      expect(
        event.name.endsWith(' v0') || event.name === 'Demo event',
        `unexpected event ${response.body}`,
      ).toBe(true);
      continue;
    }
    const found = event.numPeople as number;
    if (found === entry.acked + 1 && entry.inFlight === found) {
      report.inFlightApplied++;
      entry.acked = found;
    } else {
      expect(found, `event ${id}: acknowledged version ${entry.acked}, found ${found}`).toBe(entry.acked);
      if (entry.inFlight !== undefined) report.inFlightLost++;
    }
    entry.inFlight = undefined;
    const expected = expectedAt(entry.writer, found);
    expect({
      name: event.name,
      otherNotes: event.otherNotes,
      numPeople: event.numPeople,
      budgetBreakdown: event.budgetBreakdown,
      agendaTitles: event.agenda.map((session: { title: string }) => session.title),
    }).toEqual(expected);
    report.verifiedEvents++;
  }
}
