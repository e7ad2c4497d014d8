/**
 * Responses compressed when the client asks (br or gzip), for the contexts that register this: the
 * dashboard's pages and assets and the API reference at /docs. Not the JSON API: its hot reads are
 * answered before Fastify (fast-reads.ts) and its bodies are small. Request bodies are never
 * accepted compressed.
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export async function compressWhenAsked(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], globalDecompression: false });
  // The plain answer depends on Accept-Encoding as much as the compressed one (the plugin says so only
  // when it compresses): a shared cache must not hand a stored plain copy to every browser.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('vary', 'accept-encoding');
    done();
  });
}
