/**
 * Log settings: JSON lines (pino, Fastify's logger), each request's lines carrying its `reqId`.
 * Requests are logged by method and path only: no headers (the API key), no query string, no body
 * (free text), so nothing a tenant wrote ever reaches the logs; a venue's link token in a path is
 * replaced (`loggedPath`).
 */
import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import { pino } from 'pino';

export interface LoggingOptions {
  level: string;
  /** Where lines go (default: stdout, written asynchronously, see below). */
  stream?: NodeJS.WritableStream;
}

/**
 * One access line per request, when it is answered: method, path, client address, status, response
 * time (ms) and, like every line, the request id. Fastify's default is two lines (`incoming request`
 * and `request completed`); the one line carries everything both did, for half the logging cost.
 * A request whose response failed is logged at error level with the error, as Fastify does.
 */
export class AccessLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    if (error) {
      reply.log.error(
        { req: request, res: reply, err: error, responseTime: reply.elapsedTime },
        'request errored',
      );
    } else {
      reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    }
  }
}

/** Lines are written once this much is pending, or at the latest after FLUSH_INTERVAL_MS. */
const WRITE_AT_BYTES = 4096;
export const FLUSH_INTERVAL_MS = 100;

/**
 * Stdout without a blocking write per line: lines are gathered and written together once 4 KiB are
 * pending (about a dozen access lines) or 100 ms have passed, whichever comes first, so under load the
 * access lines cost a system call per dozen requests instead of one each. pino flushes what is
 * pending when the process exits, also through process.exit; only a SIGKILL can lose the lines of the
 * last 100 ms.
 */
function asyncStdout() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: WRITE_AT_BYTES });
  setInterval(() => destination.flush(), FLUSH_INTERVAL_MS).unref();
  return destination;
}

/**
 * A request's path as logged: without its query string, and with a venue's link token (`/rfp/{token}`,
 * D22: the token is the venue's password) replaced by `[token]`, wherever it stands in the path.
 */
export function loggedPath(url: string | undefined): string | undefined {
  return url?.split('?')[0]?.replace(/\/rfp\/[^/]+/gi, '/rfp/[token]');
}

interface RequestLike {
  method?: string;
  url?: string;
  ip?: string;
}

export function loggerOptions(options: LoggingOptions): FastifyServerOptions['logger'] {
  return {
    level: options.level,
    stream: options.stream ?? asyncStdout(),
    serializers: {
      req: (request: RequestLike) => ({
        method: request.method,
        path: loggedPath(request.url),
        remoteAddress: request.ip,
      }),
      res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
    },
    // Belt and braces, should a header ever be logged by a later change.
    redact: {
      paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  };
}
