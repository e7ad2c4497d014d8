/** Who is asking: the signed-in person of a dashboard request, and the frame every page is drawn in. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Person } from '../app/people.js';
import { href } from './href.js';
import type { Frame } from './layout.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, when the session cookie names a live session. */
    person?: Person;
  }
}

export type FrameOf = (request: FastifyRequest, reply: FastifyReply) => Frame;

/** Pages for signed-in people: the sign-in page for anyone else, coming back here afterwards. */
export async function requirePerson(request: FastifyRequest, reply: FastifyReply) {
  if (request.person) return;
  const next = request.method === 'GET' ? request.url : href.events();
  return reply.code(303).header('location', href.signIn({ next })).send();
}
