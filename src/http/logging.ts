/**
 * Log settings: JSON lines (pino, Fastify's logger), each request's lines carrying its `reqId`.
 * Requests are logged by method and path only: no headers (the API key), no query string, no body
 * (free text), so nothing a tenant wrote ever reaches the logs.
 */
import type { FastifyServerOptions } from 'fastify';

export interface LoggingOptions {
  level: string;
  /** Where lines go (default: stdout). */
  stream?: NodeJS.WritableStream;
}

interface RequestLike {
  method?: string;
  url?: string;
  ip?: string;
}

export function loggerOptions(options: LoggingOptions): FastifyServerOptions['logger'] {
  return {
    level: options.level,
    ...(options.stream ? { stream: options.stream } : {}),
    serializers: {
      req: (request: RequestLike) => ({
        method: request.method,
        path: request.url?.split('?')[0],
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
