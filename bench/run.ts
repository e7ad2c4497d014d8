/**
 * `npm run bench`: load benchmarks of the real server, each paired with its ceiling.
 *
 * For each database size N: seed a fresh database through the use cases, start `eventplan serve`
 * (compiled, from dist/, as users run it: NODE_ENV=production, default logging and durability, only
 * the rate limit raised) pinned to core 0, and drive it with `wrk` pinned to core 1. Every case runs
 * as pairs, ceiling then service (A B A B …): the ceiling is a raw node:http server, on the same
 * core, answering the same requests with the body the service answers them with. A pair counts only
 * when the ceiling kept its core at least 90% busy (from /proc), so the load generator was not the
 * limit (D19). The ratio of each counted pair, and their median, say how much of what Node's HTTP
 * stack allows the service delivers.
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
  /** Whether the ceiling was saturated (≥ 90% of its core), so the pair counts. */
  counted: boolean;
  ratio: number;
  /** Ceiling CPU per request ÷ service CPU per request: a second estimate, less moved by other load. */
  cpuRatio: number | undefined;
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
  failures: number;
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
  const cleanup = async () => {
    if (server) await stopChild(server);
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
    const wrk = (url: string, script: string, durationSeconds: number) =>
      runWrk({ url, script, connections: options.connections, durationSeconds, core: children.loadCore });

    for (const caseName of options.cases) {
      const answer = await sampleAnswer(url, seeded.key, caseName, size);
      const set = nextMessage(children.ceiling, 'answer-set');
      children.ceiling.send({ type: 'answer', ...answer });
      await set;
      const ceilingUrl = `http://127.0.0.1:${children.ceilingPort}`;
      const scripts = writeScripts(scratch, caseName, size, seeded.key);
      await wrk(ceilingUrl, scripts.ceiling, options.warmupSeconds);
      await wrk(url, scripts.service, options.warmupSeconds);

      // Pairs whose ceiling was not saturated do not count; up to twice as many are run to get enough.
      const pairs: Pair[] = [];
      let peakRss = 0;
      for (let run = 0; run < options.pairs * 2; run++) {
        if (pairs.filter((pair) => pair.counted).length >= options.pairs) break;
        const ceiling = await withCpu(children.ceiling.pid, () =>
          wrk(ceilingUrl, scripts.ceiling, options.durationSeconds),
        );
        const sampler = setInterval(() => {
          peakRss = Math.max(peakRss, memoryOf(serverPid)?.rssMiB ?? 0);
        }, 100);
        const service = await withCpu(serverPid, () =>
          wrk(url, scripts.service, options.durationSeconds),
        ).finally(() => clearInterval(sampler));
        peakRss = Math.max(peakRss, memoryOf(serverPid)?.rssMiB ?? 0);
        pairs.push({
          ceiling,
          service,
          counted: (ceiling.serverBusyPercent ?? 0) >= MIN_CEILING_BUSY_PERCENT,
          ratio: service.requestsPerSecond / ceiling.requestsPerSecond,
          cpuRatio:
            ceiling.serverCpuUsPerRequest && service.serverCpuUsPerRequest
              ? ceiling.serverCpuUsPerRequest / service.serverCpuUsPerRequest
              : undefined,
        });
      }
      // Figures come from the counted pairs; CPU per request, which does not need a saturated ceiling, from all.
      const counted = pairs.filter((pair) => pair.counted);
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
        serverPeakRssMiB: peakRss > 0 ? peakRss : undefined,
        serviceCpuUsPerRequest: medianOf(pairs.map((pair) => pair.service.serverCpuUsPerRequest)),
        ceilingCpuUsPerRequest: medianOf(pairs.map((pair) => pair.ceiling.serverCpuUsPerRequest)),
        medianCpuRatio: medianOf(pairs.map((pair) => pair.cpuRatio)),
        failures: pairs.reduce(
          (sum, pair) => sum + pair.service.non2xx + pair.service.errors + pair.service.timeouts,
          0,
        ),
        responseBytes: Buffer.byteLength(answer.body),
      };
      results.push(result);
      log(
        `   ${caseName.padEnd(12)} ${Math.round(result.requestsPerSecond).toString().padStart(6)} req/s` +
          `  ceiling ${Math.round(result.ceilingRequestsPerSecond).toString().padStart(6)}` +
          `  ratios ${pairs.map(pairText).join(' ')}  median ${result.medianRatio.toFixed(3)}` +
          `  (CPU ratio ${result.medianCpuRatio?.toFixed(3) ?? '–'})` +
          (result.failures ? `  FAILURES ${result.failures}` : ''),
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

// ---------------------------------------------------------------- report

interface Target {
  what: string;
  measured: string;
  met: boolean | undefined;
}

function targets(results: CaseResult[], postgres: boolean): { size: number | undefined; list: Target[] } {
  const sizes = [...new Set(results.map((result) => result.size))].sort((a, b) => a - b);
  const at = sizes.includes(100_000) ? 100_000 : sizes[sizes.length - 1];
  const find = (caseName: CaseName, size = at) =>
    results.find((result) => result.caseName === caseName && result.size === size);
  const list: Target[] = [];
  const ratioTarget = (caseName: CaseName, minimum: number) => {
    const result = find(caseName);
    if (result) {
      const counted = !Number.isNaN(result.medianRatio);
      list.push({
        what: `${caseName} median ratio ≥ ${minimum.toFixed(2)}`,
        measured: counted ? result.medianRatio.toFixed(3) : 'no pair counted (ceiling under 90% busy)',
        met: counted ? result.medianRatio >= minimum : undefined,
      });
    }
  };
  if (postgres) {
    ratioTarget('get-by-id', 0.15);
    ratioTarget('patch', 0.05);
  } else {
    ratioTarget('get-by-id', 0.4);
    ratioTarget('list-page-1', 0.35);
    ratioTarget('patch', 0.15);
    ratioTarget('post', 0.12);
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
  return { size: at, list };
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
    'CPU µs/req service / ceiling',
    'CPU ratio (median)',
  ];
  const micros = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(0));
  const rows = results.map((result) => [
    result.size.toLocaleString('en-US'),
    result.title,
    Math.round(result.requestsPerSecond).toLocaleString('en-US'),
    result.p50Ms.toFixed(1),
    result.p99Ms.toFixed(1),
    result.serverPeakRssMiB === undefined ? '–' : result.serverPeakRssMiB.toFixed(0),
    Math.round(result.ceilingRequestsPerSecond).toLocaleString('en-US'),
    (Number.isNaN(result.medianRatio) ? 'no pair counted' : result.medianRatio.toFixed(3)) +
      (result.failures ? ` (${result.failures} failed!)` : ''),
    result.pairs.map(pairText).join(' '),
    `${micros(result.serviceCpuUsPerRequest)} / ${micros(result.ceilingCpuUsPerRequest)}`,
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
      `wrk, 1 thread, ${options.connections} connections, ${options.pairs} counted pairs × ${options.durationSeconds} s per case; ratio = service req/s ÷ ceiling req/s in the same pair;\n` +
        `a pair counts only when the ceiling kept its core ≥ ${MIN_CEILING_BUSY_PERCENT}% busy (shown after @; ✗ = not counted); the median is over counted pairs\n`,
    );
    out.push(table(results));
    out.push(`\nTargets at N = ${verdict.size?.toLocaleString('en-US')}:`);
    for (const target of verdict.list) {
      const mark = target.met === undefined ? 'not measured' : target.met ? 'met' : 'NOT met';
      out.push(`  ${target.what}: ${target.measured} — ${mark}`);
    }
    out.push(`\nDisk: ${Math.round(fsyncRate)} fsync/s one at a time; results in ${relative(ROOT, file)}`);
    process.stdout.write(`${out.join('\n')}\n`);
    if (results.some((result) => result.failures > 0)) process.exitCode = 1;
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
