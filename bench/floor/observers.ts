/**
 * What is recorded of every request, as the service records it: one access line, written to pino's
 * destination with pino's fields in pino's order (the service's fast reads write theirs the same way),
 * and, through prom-client, a request counter and a latency histogram by method, route pattern and
 * status, plus the created and updated events' counters.
 */
import { hostname } from 'node:os';
import { type DestinationStream, pino } from 'pino';
import { Counter, Histogram, Registry } from 'prom-client';

type Labels = { method: string; route: string; status_code: string };

export interface Observers {
  registry: Registry;
  /** Logs and counts one answered request; `started` is its performance.now() on arrival. */
  record(
    method: string,
    path: string,
    remoteAddress: string | undefined,
    requestId: string,
    route: string,
    status: number,
    started: number,
  ): void;
}

/** INFO, the access line's level in pino's numbering. */
const INFO = 30;

export function createObservers(destination: DestinationStream): Observers {
  // What pino puts before a line's own fields: its level, the time, then its base bindings.
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  const registry = new Registry();
  const registers = [registry];
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'eventplan_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames,
    registers,
  });
  const duration = new Histogram({
    name: 'eventplan_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route pattern and status code.',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const eventsCreated = new Counter({
    name: 'eventplan_events_created_total',
    help: 'Events created through the API (201 responses).',
    registers,
  });
  const eventsUpdated = new Counter({
    name: 'eventplan_events_updated_total',
    help: 'Event updates applied through the API (200 responses to PATCH).',
    registers,
  });
  // One labels object per method, route and status, made once.
  const labelsByKey = new Map<string, Labels>();

  return {
    registry,
    record(method, path, remoteAddress, requestId, route, status, started) {
      const elapsedMs = performance.now() - started;
      destination.write(
        `{"level":${INFO},"time":${Date.now()}${bindings},"reqId":${JSON.stringify(requestId)},"req":{"method":"${method}","path":${JSON.stringify(path)}${
          remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(remoteAddress)}`
        }},"res":{"statusCode":${status}},"responseTime":${elapsedMs},"msg":"request completed"}\n`,
      );
      const key = `${method} ${status} ${route}`;
      let labels = labelsByKey.get(key);
      if (labels === undefined) {
        labels = { method, route, status_code: String(status) };
        labelsByKey.set(key, labels);
      }
      requests.inc(labels);
      duration.observe(labels, elapsedMs / 1000);
      if (status === 201 && method === 'POST') eventsCreated.inc();
      else if (status === 200 && method === 'PATCH') eventsUpdated.inc();
    },
  };
}

/** Lines gathered and written once 4 KiB are pending or 100 ms have passed, as the service writes them. */
export function logDestination(fd = 1) {
  const destination = pino.destination({ dest: fd, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), 100).unref();
  return destination;
}
