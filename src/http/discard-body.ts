/**
 * A body over the limit is answered 413 as soon as the limit is passed. Closing the connection right
 * after that answer resets it while the client is still sending, and clients such as fetch then report
 * EPIPE or "other side closed" instead of the 413. So the rest of the body is read and thrown away,
 * up to a bound, and the connection stays open for the next request; past the bound (or when the
 * declared length is already past it) the connection is closed after the answer, as before.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How much of an oversized body is read and dropped so that its sender can read the answer. */
export const DISCARD_LIMIT_BYTES = 16 * 1024 * 1024;

export function discardRestOfBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  const declared = Number(raw.headers['content-length']);
  if (raw.complete || declared > DISCARD_LIMIT_BYTES) return;
  reply.removeHeader('connection');
  let discarded = 0;
  raw.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) raw.socket?.destroy();
  });
  raw.resume();
}
