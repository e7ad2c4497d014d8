/**
 * The load generator, a separate process (pinned to its own core by the runner). It receives one
 * run at a time over IPC, drives it with autocannon's programmatic API, and answers with the
 * figures and the CPU it spent, so a run limited by the generator rather than the server shows.
 */
import autocannon from 'autocannon';
import { type BuiltRequest, type CaseName, requestMaker } from './cases.js';

export interface RunRequest {
  type: 'run';
  url: string;
  key: string;
  caseName: CaseName;
  eventCount: number;
  connections: number;
  durationSeconds: number;
}

export interface RunResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU time of this process over the run's wall time: near 100 means the generator was the limit. */
  loadGeneratorCpuPercent: number;
}

async function run(job: RunRequest): Promise<RunResult> {
  const maker = requestMaker(job.caseName, job.eventCount);
  const headers = { 'x-api-key': job.key, 'content-type': 'application/json' };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.durationSeconds,
    headers,
    requests: [
      {
        // Each connection has one request in flight, so its context knows which request a response answers.
        setupRequest: (request, context) => {
          const built = maker.next();
          (context as { built?: BuiltRequest }).built = built;
          // A fresh headers object each time: autocannon writes Content-Length into the one it is given.
          return {
            ...request,
            method: built.method,
            path: built.path,
            headers: { ...headers },
            body: built.body ?? '',
          };
        },
        onResponse: (status, body, context) => {
          maker.observe((context as { built: BuiltRequest }).built, status, String(body));
        },
      },
    ],
  });
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (stats as { count: number }).count;
  }
  const requests = result['2xx'] + result.non2xx;
  return {
    requests,
    requestsPerSecond: requests / (result.duration || job.durationSeconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    loadGeneratorCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
  };
}

process.on('message', (message: RunRequest) => {
  if (message.type !== 'run') return;
  run(message).then(
    (result) => process.send?.({ type: 'result', result }),
    (error: unknown) => process.send?.({ type: 'error', message: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
