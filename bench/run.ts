/**
 * `npm run bench`: load benchmarks of the real server, each paired with its ceiling.
 *
 * For each database size N: seed a fresh database through the use cases, start `eventplan serve`
 * (compiled, from dist/, as users run it: NODE_ENV=production, default logging and durability, only
 * the rate limit raised) pinned to core 0, and drive it with `wrk` pinned to core 1. Every case runs
 * as pairs, the ceiling first, then the service and the floor (in turn first): the ceiling is a raw
 * node:http server, on the same core, answering the same requests with the body the service answers
 * them with; the floor (bench/floor) is the plainest server that does the same work on the same
 * database, also on core 0. A pair counts only when the ceiling kept its core at least 90% busy (from
 * /proc), so the load generator was not the limit (D19). Each counted pair gives service ÷ ceiling
 * (how much of what Node's HTTP stack allows the service delivers) and service ÷ floor (how much of
 * what its features allow); the medians are over counted pairs.
 *
 * Options: --quick (smoke run, < 2 minutes), --million (adds N = 1,000,000), --sizes=1000,5000,
 * --cases=get-by-id,patch, --pairs=5, --duration=6 (seconds per run), --connections=50,
 * --source (serve from src/ with tsx, no build), --no-build, --profile (server CPU profiles in
 * bench/results/profiles/). BENCH_DATABASE_URL=postgres://… runs on PostgreSQL, in a fresh
 * database created for each size and dropped afterwards.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  fdatasyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CASE_NAMES, CASE_TITLES, type CaseName, deepPageOf, requestMaker } from './cases.js';
import { seedDatabase } from './seed.js';
import { cpuMsOf, hasWrk, type RunResult, runWrk, writeScripts } from './wrk-load.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = join(ROOT, 'bench', 'results');

// ---------------------------------------------------------------- options

interface Options {
  quick: boolean;
  sizes: number[];
  cases: CaseName[];
  pairs: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  source: boolean;
  build: boolean;
  profile: boolean;
  databaseUrl: string | undefined;
}

function parseOptions(argv: string[]): Options {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg}`);
    flags.set(match[1]!, match[2] ?? 'true');
  }
  const known = [
    'quick',
    'million',
    'sizes',
    'cases',
    'pairs',
    'duration',
    'connections',
    'source',
    'no-build',
    'profile',
  ];
  for (const flag of flags.keys()) {
    if (!known.includes(flag)) throw new Error(`unknown option --${flag} (known: ${known.join(', ')})`);
  }
  const quick = flags.has('quick');
  const numberOf = (flag: string, fallback: number) => {
    const raw = flags.get(flag);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${flag} must be a positive number`);
    return value;
  };
  let sizes = quick ? [1_000, 5_000] : [1_000, 100_000];
  if (flags.has('million')) sizes = [...sizes, 1_000_000];
  if (flags.has('sizes')) sizes = flags.get('sizes')!.split(',').map(Number);
  if (sizes.some((size) => !Number.isSafeInteger(size) || size < 20))
    throw new Error('--sizes are whole numbers ≥ 20');
  const cases = flags.has('cases') ? (flags.get('cases')!.split(',') as CaseName[]) : [...CASE_NAMES];
  for (const name of cases) {
    if (!CASE_NAMES.includes(name)) throw new Error(`unknown case ${name} (known: ${CASE_NAMES.join(', ')})`);
  }
  return {
    quick,
    sizes,
    cases,
    pairs: numberOf('pairs', quick ? 2 : 5),
    durationSeconds: numberOf('duration', quick ? 1 : 6),
    warmupSeconds: quick ? 1 : 3,
    connections: numberOf('connections', 50),
    source: flags.has('source'),
    build: !flags.has('no-build') && !flags.has('source'),
    profile: flags.has('profile'),
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
  };
}

const log = (text: string) => process.stderr.write(`${text}\n`);

/** What to undo if the run is interrupted: stop the processes started, drop the databases made. */
const cleanups = new Set<() => Promise<void>>();
process.once('SIGINT', () => {
  log('\ninterrupted: stopping the processes and removing the databases this run made…');
  Promise.allSettled([...cleanups].map((cleanup) => cleanup())).finally(() => process.exit(130));
});

// ---------------------------------------------------------------- the machine

function machine() {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    model = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? model;
  } catch {}
  return {
    cores: availableParallelism(),
    cpuModel: model,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

function hasTaskset(): boolean {
  return spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** How many write + fdatasync rounds per second the disk under `dir` manages, one at a time. */
function fsyncsPerSecond(dir: string): number {
  const path = join(dir, 'fsync-probe');
  const fd = openSync(path, 'w');
  const page = Buffer.alloc(4096, 1);
  let rounds = 0;
  const started = performance.now();
  try {
    while (performance.now() - started < 1000) {
      writeSync(fd, page, 0, page.length, 0);
      fdatasyncSync(fd);
      rounds++;
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  return rounds / ((performance.now() - started) / 1000);
}

// ---------------------------------------------------------------- processes

/** Starts `command args…`, pinned to `core` when taskset is there. */
function startPinned(
  core: number | undefined,
  command: string,
  args: string[],
  options: Parameters<typeof spawn>[2],
) {
  return core === undefined
    ? spawn(command, args, options)
    : spawn('taskset', ['-c', String(core), command, ...args], options);
}

function nextMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string; message?: string }) => {
      if (message.type === type) {
        cleanup();
        resolve(message as T);
      } else if (message.type === 'error') {
        cleanup();
        reject(new Error(message.message));
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`child process exited (${code}) before sending ${type}`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

/** Runs `work` and measures the CPU `pid` spent meanwhile, per request and as a share of one core. */
async function withCpu(pid: number | undefined, work: () => Promise<RunResult>) {
  const before = cpuMsOf(pid);
  const result = await work();
  const after = cpuMsOf(pid);
  const measured = before !== undefined && after !== undefined;
  return {
    ...result,
    serverCpuUsPerRequest:
      measured && result.requests > 0 ? ((after - before) * 1000) / result.requests : undefined,
    // The process was idle while wrk loaded its script, so its CPU over wrk's window is its busy share.
    serverBusyPercent: measured ? ((after - before) / result.durationMs) * 100 : undefined,
  };
}

/** Resident memory of a process, in MiB, from /proc (undefined where there is none). */
function memoryOf(pid: number): { rssMiB: number; peakMiB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`${name}:\\s*(\\d+)`).exec(status)?.[1] ?? 0);
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- databases

interface BenchDatabase {
  url: string;
  /** Where fsync is measured (SQLite only). */
  dir?: string;
  drop(): Promise<void>;
}

async function freshDatabase(size: number, adminUrl: string | undefined): Promise<BenchDatabase> {
  if (adminUrl === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'eventplan-bench-'));
    return {
      url: join(dir, 'eventplan.db'),
      dir,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `eventplan_bench_${process.pid}_${size}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

// ---------------------------------------------------------------- one size

type MeasuredRun = RunResult & {
  serverCpuUsPerRequest: number | undefined;
  serverBusyPercent: number | undefined;
};

/** D19: a pair counts only when the ceiling kept its core at least this busy. */
const MIN_CEILING_BUSY_PERCENT = 90;

interface Pair {
  ceiling: MeasuredRun;
  service: MeasuredRun;
  /** The floor's run in the same pair (none for a case the floor does not answer). */
  floor: MeasuredRun | undefined;
  /** Whether the ceiling was saturated (≥ 90% of its core), so the pair counts. */
  counted: boolean;
  /** Service req/s ÷ ceiling req/s. */
  ratio: number;
  /** Service req/s ÷ floor req/s. */
  floorRatio: number | undefined;
  /** Ceiling CPU per request ÷ service CPU per request: a second estimate, less moved by other load. */
  cpuRatio: number | undefined;
  /** Floor CPU per request ÷ service CPU per request. */
  floorCpuRatio: number | undefined;
}

interface CaseResult {
  size: number;
  caseName: CaseName;
  title: string;
  /** Every pair run, counted or not. */
  pairs: Pair[];
  /** Median over the counted pairs (NaN when none counted). */
  medianRatio: number;
  ceilingBusyPercent: number | undefined;
  requestsPerSecond: number;
  ceilingRequestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  serverPeakRssMiB: number | undefined;
  serviceCpuUsPerRequest: number | undefined;
  ceilingCpuUsPerRequest: number | undefined;
  medianCpuRatio: number | undefined;
  /** Median over the counted pairs of service ÷ floor (NaN when none counted; undefined without a floor). */
  medianFloorRatio: number | undefined;
  floorRequestsPerSecond: number | undefined;
  floorP50Ms: number | undefined;
  floorP99Ms: number | undefined;
  floorPeakRssMiB: number | undefined;
  floorCpuUsPerRequest: number | undefined;
  medianFloorCpuRatio: number | undefined;
  failures: number;
  floorFailures: number;
  responseBytes: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The median of the values measured, or undefined when any is missing. */
const medianOf = (values: Array<number | undefined>) =>
  values.every((value) => value !== undefined) ? median(values as number[]) : undefined;

const failuresOf = (run: RunResult | undefined) => (run ? run.non2xx + run.errors + run.timeouts : 0);

interface Children {
  ceiling: ChildProcess;
  ceilingPort: number;
  serverCore: number | undefined;
  loadCore: number | undefined;
}

/** Node's flags in `npm start` (package.json), so the server runs with the flags users run it with. */
function startFlags(): string[] {
  const start = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(1, words.indexOf('bin/eventplan.js'));
}

async function startService(
  options: Options,
  databaseUrl: string,
  core: number | undefined,
  logFile: string,
) {
  const port = await freePort();
  const nodeArgs = [
    ...startFlags(),
    ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS_DIR, 'profiles')}`] : []),
  ];
  const args = options.source
    ? [...nodeArgs, '--import', 'tsx', join(ROOT, 'bench', 'serve-from-source.ts')]
    : [...nodeArgs, join(ROOT, 'bin', 'eventplan.js'), 'serve'];
  // As users run it: default logging (info, an access line per request) into a file, as `> log` would.
  const { LOG_LEVEL: _level, ...environment } = process.env;
  const log = openSync(logFile, 'a');
  const server = startPinned(core, process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', log, 'inherit'],
    env: {
      ...environment,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_PER_MINUTE: '1000000000',
      REDIS_URL: '',
    },
  });
  closeSync(log);
  return { server, port };
}

/** The floor (bench/floor) on the service's database, with the service's Node flags and settings. */
async function startFloor(options: Options, databaseUrl: string, core: number | undefined, logFile: string) {
  const port = await freePort();
  const args = [
    ...startFlags(),
    ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(RESULTS_DIR, 'profiles')}`] : []),
    '--import',
    'tsx',
    join(ROOT, 'bench', 'floor', 'main.ts'),
  ];
  const log = openSync(logFile, 'a');
  const floor = startPinned(core, process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', log, 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_PER_MINUTE: '1000000000',
    },
  });
  closeSync(log);
  return { floor, port };
}

/** The cases the floor answers (not the places search). */
const FLOOR_CASES: readonly CaseName[] = ['get-by-id', 'list-page-1', 'list-deep', 'patch', 'post', 'mix'];

/**
 * The floor must answer what the service answers: a read's body byte for byte, a write's status and
 * (for a create) the people granted. The same request goes to both; a difference stops the run.
 */
async function checkFloorAnswers(
  serviceUrl: string,
  floorUrl: string,
  key: string,
  caseName: CaseName,
  size: number,
) {
  const request = requestMaker(caseName === 'mix' ? 'get-by-id' : caseName, size).next();
  const ask = async (url: string) => {
    const response = await fetch(`${url}${request.path}`, {
      method: request.method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
  };
  const service = await ask(serviceUrl);
  const floor = await ask(floorUrl);
  const same =
    request.method === 'GET'
      ? floor.status === service.status && floor.body === service.body && floor.etag === service.etag
      : request.method === 'POST'
        ? floor.status === service.status &&
          JSON.parse(floor.body).grantedTo === JSON.parse(service.body).grantedTo
        : floor.status === service.status && floor.body.length > 0 && floor.etag !== null;
  if (!same) {
    throw new Error(
      `${caseName}: the floor answered ${request.method} ${request.path} with ${floor.status} ${floor.body.slice(0, 300)}, ` +
        `the service with ${service.status} ${service.body.slice(0, 300)}`,
    );
  }
}

async function waitUntilServing(url: string, key: string, server: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${url}/v1/events?limit=1`, { headers: { 'x-api-key': key } });
      if (response.status === 200) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not answer within 60 s');
}

/** One real answer of the case, which the ceiling then gives to every request. */
async function sampleAnswer(url: string, key: string, caseName: CaseName, size: number) {
  const request = requestMaker(caseName === 'mix' ? 'get-by-id' : caseName, size).next();
  const response = await fetch(`${url}${request.path}`, {
    method: request.method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const body = await response.text();
  if (response.status >= 300)
    throw new Error(`${caseName}: the sample request got ${response.status}: ${body}`);
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? 'application/json',
    body,
  };
}

async function benchSize(options: Options, children: Children, size: number): Promise<CaseResult[]> {
  const database = await freshDatabase(size, options.databaseUrl);
  const results: CaseResult[] = [];
  let server: ChildProcess | undefined;
  let floor: ChildProcess | undefined;
  const cleanup = async () => {
    if (server) await stopChild(server);
    if (floor) await stopChild(floor);
    await database.drop();
  };
  const scratchDirs: string[] = [];
  cleanups.add(cleanup);
  try {
    log(`\n== N = ${size.toLocaleString('en-US')} events: seeding…`);
    let reported = 0;
    const seeded = await seedDatabase(database.url, size, (done) => {
      if (done - reported >= 100_000) {
        reported = done;
        log(`   seeded ${done.toLocaleString('en-US')}`);
      }
    });
    log(`   seeded in ${seeded.seconds.toFixed(1)} s`);
    const scratch = mkdtempSync(join(tmpdir(), 'eventplan-bench-run-'));
    scratchDirs.push(scratch);
    const started = await startService(
      options,
      database.url,
      children.serverCore,
      join(scratch, 'server.log'),
    );
    server = started.server;
    const url = `http://127.0.0.1:${started.port}`;
    await waitUntilServing(url, seeded.key, server);
    const serverPid = server.pid!;
    const floorStarted = await startFloor(
      options,
      database.url,
      children.serverCore,
      join(scratch, 'floor.log'),
    );
    floor = floorStarted.floor;
    const floorUrl = `http://127.0.0.1:${floorStarted.port}`;
    await waitUntilServing(floorUrl, seeded.key, floor);
    const floorPid = floor.pid!;
    const wrk = (url: string, script: string, durationSeconds: number) =>
      runWrk({ url, script, connections: options.connections, durationSeconds, core: children.loadCore });

    for (const caseName of options.cases) {
      const answer = await sampleAnswer(url, seeded.key, caseName, size);
      const withFloor = FLOOR_CASES.includes(caseName);
      if (withFloor) await checkFloorAnswers(url, floorUrl, seeded.key, caseName, size);
      const set = nextMessage(children.ceiling, 'answer-set');
      children.ceiling.send({ type: 'answer', ...answer });
      await set;
      const ceilingUrl = `http://127.0.0.1:${children.ceilingPort}`;
      const scripts = writeScripts(scratch, caseName, size, seeded.key);
      await wrk(ceilingUrl, scripts.ceiling, options.warmupSeconds);
      await wrk(url, scripts.service, options.warmupSeconds);
      if (withFloor) await wrk(floorUrl, scripts.service, options.warmupSeconds);

      /** A run of the service or the floor, with the peak of its resident memory meanwhile. */
      const peaks = { service: 0, floor: 0 };
      const measured = async (target: 'service' | 'floor') => {
        const pid = target === 'service' ? serverPid : floorPid;
        const sampler = setInterval(() => {
          peaks[target] = Math.max(peaks[target], memoryOf(pid)?.rssMiB ?? 0);
        }, 100);
        const run = await withCpu(pid, () =>
          wrk(target === 'service' ? url : floorUrl, scripts.service, options.durationSeconds),
        ).finally(() => clearInterval(sampler));
        peaks[target] = Math.max(peaks[target], memoryOf(pid)?.rssMiB ?? 0);
        return run;
      };
      // Pairs whose ceiling was not saturated do not count; up to twice as many are run to get enough.
      // The service and the floor take turns going first after the ceiling, so neither always meets the
      // state (grown agendas, more events) the other left.
      const pairs: Pair[] = [];
      for (let run = 0; run < options.pairs * 2; run++) {
        if (pairs.filter((pair) => pair.counted).length >= options.pairs) break;
        const ceiling = await withCpu(children.ceiling.pid, () =>
          wrk(ceilingUrl, scripts.ceiling, options.durationSeconds),
        );
        let service: MeasuredRun;
        let floorRun: MeasuredRun | undefined;
        if (withFloor && run % 2 === 1) {
          floorRun = await measured('floor');
          service = await measured('service');
        } else {
          service = await measured('service');
          if (withFloor) floorRun = await measured('floor');
        }
        const cpuPer = (run: MeasuredRun | undefined) => run?.serverCpuUsPerRequest;
        pairs.push({
          ceiling,
          service,
          floor: floorRun,
          counted: (ceiling.serverBusyPercent ?? 0) >= MIN_CEILING_BUSY_PERCENT,
          ratio: service.requestsPerSecond / ceiling.requestsPerSecond,
          floorRatio: floorRun && service.requestsPerSecond / floorRun.requestsPerSecond,
          cpuRatio: cpuPer(ceiling) && cpuPer(service) ? cpuPer(ceiling)! / cpuPer(service)! : undefined,
          floorCpuRatio:
            cpuPer(floorRun) && cpuPer(service) ? cpuPer(floorRun)! / cpuPer(service)! : undefined,
        });
      }
      // Figures come from the counted pairs; CPU per request, which does not need a saturated ceiling, from all.
      const counted = pairs.filter((pair) => pair.counted);
      const floors = pairs.flatMap((pair) => (pair.floor ? [pair.floor] : []));
      const result: CaseResult = {
        size,
        caseName,
        title: CASE_TITLES[caseName],
        pairs,
        medianRatio: counted.length ? median(counted.map((pair) => pair.ratio)) : Number.NaN,
        ceilingBusyPercent: medianOf(pairs.map((pair) => pair.ceiling.serverBusyPercent)),
        requestsPerSecond: median(pairs.map((pair) => pair.service.requestsPerSecond)),
        ceilingRequestsPerSecond: median(pairs.map((pair) => pair.ceiling.requestsPerSecond)),
        p50Ms: median(pairs.map((pair) => pair.service.p50Ms)),
        p99Ms: median(pairs.map((pair) => pair.service.p99Ms)),
        serverPeakRssMiB: peaks.service > 0 ? peaks.service : undefined,
        serviceCpuUsPerRequest: medianOf(pairs.map((pair) => pair.service.serverCpuUsPerRequest)),
        ceilingCpuUsPerRequest: medianOf(pairs.map((pair) => pair.ceiling.serverCpuUsPerRequest)),
        medianCpuRatio: medianOf(pairs.map((pair) => pair.cpuRatio)),
        medianFloorRatio: withFloor
          ? counted.length
            ? median(counted.map((pair) => pair.floorRatio!))
            : Number.NaN
          : undefined,
        floorRequestsPerSecond: floors.length
          ? median(floors.map((run) => run.requestsPerSecond))
          : undefined,
        floorP50Ms: floors.length ? median(floors.map((run) => run.p50Ms)) : undefined,
        floorP99Ms: floors.length ? median(floors.map((run) => run.p99Ms)) : undefined,
        floorPeakRssMiB: peaks.floor > 0 ? peaks.floor : undefined,
        floorCpuUsPerRequest: floors.length
          ? medianOf(floors.map((run) => run.serverCpuUsPerRequest))
          : undefined,
        medianFloorCpuRatio: withFloor ? medianOf(pairs.map((pair) => pair.floorCpuRatio)) : undefined,
        failures: pairs.reduce((sum, pair) => sum + failuresOf(pair.service), 0),
        floorFailures: pairs.reduce((sum, pair) => sum + failuresOf(pair.floor), 0),
        responseBytes: Buffer.byteLength(answer.body),
      };
      results.push(result);
      log(
        `   ${caseName.padEnd(12)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s` +
          `  ceiling ${Math.round(result.ceilingRequestsPerSecond).toString().padStart(6)}` +
          `  ratios ${pairs.map(pairText).join(' ')}  median ${result.medianRatio.toFixed(3)}` +
          `  (CPU ratio ${result.medianCpuRatio?.toFixed(3) ?? '–'})` +
          (withFloor
            ? `  floor ${Math.round(result.floorRequestsPerSecond ?? 0)} req/s, ÷ floor ${pairs.map(floorPairText).join(' ')}` +
              `  median ${result.medianFloorRatio?.toFixed(3)}`
            : '') +
          (result.failures ? `  FAILURES ${result.failures}` : '') +
          (result.floorFailures ? `  FLOOR FAILURES ${result.floorFailures}` : ''),
      );
    }
    return results;
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
    for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** A pair's ratio and its ceiling's busy share; a pair that does not count is struck through with ✗. */
const pairText = (pair: Pair) =>
  `${pair.ratio.toFixed(3)}@${pair.ceiling.serverBusyPercent?.toFixed(0) ?? '?'}%${pair.counted ? '' : '✗'}`;

/** A pair's service ÷ floor and the floor's busy share (✗: the pair does not count). */
const floorPairText = (pair: Pair) =>
  pair.floorRatio === undefined
    ? '–'
    : `${pair.floorRatio.toFixed(3)}@${pair.floor?.serverBusyPercent?.toFixed(0) ?? '?'}%${pair.counted ? '' : '✗'}`;

// ---------------------------------------------------------------- report

interface Target {
  what: string;
  measured: string;
  met: boolean | undefined;
}

/** The targets (docs/performance.md, "The method (D19)"): each case at least this share of its floor, at N. */
const FLOOR_TARGETS = {
  sqlite: { minimum: 0.85, size: 100_000 },
  postgres: { minimum: 0.7, size: 20_000 },
};
const FLOOR_TARGET_CASES: readonly CaseName[] = ['get-by-id', 'list-page-1', 'list-deep', 'patch', 'post'];

function targets(results: CaseResult[], postgres: boolean) {
  const goal = postgres ? FLOOR_TARGETS.postgres : FLOOR_TARGETS.sqlite;
  const sizes = [...new Set(results.map((result) => result.size))].sort((a, b) => a - b);
  const at = sizes.includes(goal.size) ? goal.size : sizes[sizes.length - 1];
  const find = (caseName: CaseName, size = at) =>
    results.find((result) => result.caseName === caseName && result.size === size);
  const list: Target[] = [];
  for (const caseName of FLOOR_TARGET_CASES) {
    const result = find(caseName);
    if (result?.medianFloorRatio === undefined) continue;
    const counted = !Number.isNaN(result.medianFloorRatio);
    list.push({
      what: `${caseName}: service ÷ floor ≥ ${goal.minimum.toFixed(2)}`,
      measured: counted ? result.medianFloorRatio.toFixed(3) : 'no pair counted (ceiling under 90% busy)',
      met: counted ? result.medianFloorRatio >= goal.minimum : undefined,
    });
  }
  const peak = Math.max(
    ...results.filter((result) => result.size === at).map((result) => result.serverPeakRssMiB ?? 0),
  );
  if (peak > 0) {
    // 150 MB is 143.05 MiB: /proc counts in KiB, the target in megabytes.
    const peakMB = (peak * 1024 * 1024) / 1e6;
    list.push({
      what: 'server peak RSS ≤ 150 MB',
      measured: `${peak.toFixed(0)} MiB (${peakMB.toFixed(0)} MB)`,
      met: peakMB <= 150,
    });
  }
  const firstPage = find('list-page-1');
  const deepPage = find('list-deep');
  if (!postgres && firstPage?.serviceCpuUsPerRequest && deepPage?.serviceCpuUsPerRequest) {
    const times = deepPage.serviceCpuUsPerRequest / firstPage.serviceCpuUsPerRequest;
    list.push({
      what: 'middle page CPU per request within 3× of page 1',
      measured: `${times.toFixed(2)}× (${firstPage.serviceCpuUsPerRequest.toFixed(0)} → ${deepPage.serviceCpuUsPerRequest.toFixed(0)} µs)`,
      met: times <= 3,
    });
  }
  return { size: at, targetSize: goal.size, list };
}

function table(results: CaseResult[]): string {
  const header = [
    'N',
    'case',
    'req/s',
    'p50 ms',
    'p99 ms',
    'RSS MiB',
    'ceiling req/s',
    'ratio (median)',
    'pair ratios @ ceiling busy',
    'floor req/s',
    '÷ floor (median)',
    '÷ floor per pair @ floor busy',
    'CPU µs/req service / floor / ceiling',
    'CPU ratio (median)',
  ];
  const micros = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(0));
  const ratio = (value: number | undefined) =>
    value === undefined ? '–' : Number.isNaN(value) ? 'no pair counted' : value.toFixed(3);
  const rows = results.map((result) => [
    result.size.toLocaleString('en-US'),
    result.title,
    Math.round(result.requestsPerSecond).toLocaleString('en-US'),
    result.p50Ms.toFixed(1),
    result.p99Ms.toFixed(1),
    result.serverPeakRssMiB === undefined ? '–' : result.serverPeakRssMiB.toFixed(0),
    Math.round(result.ceilingRequestsPerSecond).toLocaleString('en-US'),
    ratio(result.medianRatio) + (result.failures ? ` (${result.failures} failed!)` : ''),
    result.pairs.map(pairText).join(' '),
    result.floorRequestsPerSecond === undefined
      ? '–'
      : Math.round(result.floorRequestsPerSecond).toLocaleString('en-US'),
    ratio(result.medianFloorRatio) +
      (result.floorFailures ? ` (floor: ${result.floorFailures} failed!)` : ''),
    result.medianFloorRatio === undefined ? '–' : result.pairs.map(floorPairText).join(' '),
    `${micros(result.serviceCpuUsPerRequest)} / ${micros(result.floorCpuUsPerRequest)} / ${micros(result.ceilingCpuUsPerRequest)}`,
    result.medianCpuRatio === undefined ? '–' : result.medianCpuRatio.toFixed(3),
  ]);
  const lines = [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`);
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!hasWrk()) {
    log('The benchmark drives the server with wrk, which is not installed. Install it with:');
    log('  sudo apt-get install -y wrk        (Debian, Ubuntu; elsewhere: https://github.com/wg/wrk)');
    process.exitCode = 1;
    return;
  }
  const startedAt = new Date();
  const backend = options.databaseUrl ? 'postgres' : 'sqlite';
  if (options.databaseUrl && !/^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    throw new Error('BENCH_DATABASE_URL must be a postgres:// URL (unset: SQLite)');
  }
  if (options.build) {
    log('building dist/ (npm run build)…');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  const info = machine();
  const pinned = hasTaskset() && info.cores >= 2;
  const serverCore = pinned ? 0 : undefined;
  const loadCore = pinned ? 1 : undefined;
  const probeDir = mkdtempSync(join(tmpdir(), 'eventplan-bench-fsync-'));
  const fsyncRate = fsyncsPerSecond(probeDir);
  rmSync(probeDir, { recursive: true, force: true });
  log(
    `${info.cores} cores, ${info.cpuModel}, ${info.memoryGiB} GiB; ${backend}; server ${options.source ? 'from src (tsx)' : 'from dist'}; ` +
      `${pinned ? 'server and ceiling on core 0, load on core 1' : 'not pinned'}; disk: ${Math.round(fsyncRate)} fsync/s`,
  );

  const tsxArgs = ['--import', 'tsx'];
  const ceiling = startPinned(
    serverCore,
    process.execPath,
    [...tsxArgs, join(ROOT, 'bench', 'ceiling-server.ts')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  const children: Children = { ceiling, ceilingPort: 0, serverCore, loadCore };
  const stopHelpers = () => stopChild(ceiling);
  cleanups.add(stopHelpers);
  try {
    const listening = await nextMessage<{ port: number }>(ceiling, 'listening');
    children.ceilingPort = listening.port;

    const results: CaseResult[] = [];
    for (const size of options.sizes) results.push(...(await benchSize(options, children, size)));

    const verdict = targets(results, backend === 'postgres');
    const report = {
      date: startedAt.toISOString(),
      command: `npm run bench --${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
      machine: info,
      backend,
      server: options.source ? 'src via tsx' : 'dist (npm run build)',
      pinned,
      diskFsyncsPerSecond: Math.round(fsyncRate),
      options: { ...options, databaseUrl: options.databaseUrl ? '(set)' : undefined },
      deepPages: Object.fromEntries(options.sizes.map((size) => [size, deepPageOf(size)])),
      results,
      targets: verdict,
    };
    const file = join(
      RESULTS_DIR,
      `${startedAt.toISOString().replace(/[:.]/g, '-')}-${backend}${options.quick ? '-quick' : ''}.json`,
    );
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);

    const out: string[] = [];
    out.push(
      `\neventplan benchmark, ${startedAt.toISOString()} — ${backend}, ${info.cores} cores (${info.cpuModel}), ${info.memoryGiB} GiB, Node ${info.node}`,
    );
    out.push(
      `wrk, 1 thread, ${options.connections} connections, ${options.pairs} counted pairs × ${options.durationSeconds} s per case; ratio = service req/s ÷ ceiling req/s in the same pair,\n` +
        `÷ floor = service req/s ÷ floor req/s in the same pair (bench/floor: the same features, plainly written);\n` +
        `a pair counts only when the ceiling kept its core ≥ ${MIN_CEILING_BUSY_PERCENT}% busy (shown after @; ✗ = not counted); the medians are over counted pairs\n`,
    );
    out.push(table(results));
    out.push(
      `\nTargets at N = ${verdict.size?.toLocaleString('en-US')}` +
        (verdict.size === verdict.targetSize
          ? ':'
          : ` (they are set at N = ${verdict.targetSize.toLocaleString('en-US')}; this run's largest size stands in):`),
    );
    for (const target of verdict.list) {
      const mark = target.met === undefined ? 'not measured' : target.met ? 'met' : 'NOT met';
      out.push(`  ${target.what}: ${target.measured} — ${mark}`);
    }
    out.push(`\nDisk: ${Math.round(fsyncRate)} fsync/s one at a time; results in ${relative(ROOT, file)}`);
    process.stdout.write(`${out.join('\n')}\n`);
    if (results.some((result) => result.failures > 0 || result.floorFailures > 0)) process.exitCode = 1;
  } finally {
    cleanups.delete(stopHelpers);
    if (ceiling.connected) ceiling.disconnect();
    await stopHelpers();
  }
}

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
