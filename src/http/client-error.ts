/**
 * Errors Node reports before a request exists (a client too slow to send it, headers too large,
 * bytes that are not HTTP) are answered as problem details too (D4), then the connection closes.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemBody } from './problem.js';

export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [
          408,
          'request_timeout',
          'The request was not received in time; send it faster or on a new connection.',
        ]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request headers are larger than the server accepts.']
        : [400, 'bad_request', 'The request is not valid HTTP/1.1.'];
  const requestId = randomUUID();
  const body = JSON.stringify(problemBody({ status, code, message }, requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `x-request-id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
