/** Signing in and out, invitations, and the person's own sessions. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  acceptInvite,
  endOwnSession,
  findInvite,
  listOwnSessions,
  type PeopleDeps,
  signIn,
  signOut,
} from '../app/people.js';
import {
  NotFoundError,
  SignInRefusedError,
  SignInThrottledError,
  ValidationError,
} from '../domain/errors.js';
import { type FormBody, field } from './forms.js';
import { type FrameOf, requirePerson } from './guard.js';
import { noticeOf } from './notices.js';
import { SessionsPage } from './pages/sessions.js';
import { InvitePage, SignInPage } from './pages/sign-in.js';
import { seeOther, sendPage } from './render.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

/** Only a path of the dashboard itself: never another site, never `//host`. */
export function safeNext(next: string): string {
  return /^\/app(\/[^/\\]|$|\?)/.test(next) && !next.includes('\\') ? next : '/app';
}

const userAgentOf = (request: FastifyRequest) => {
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' && agent !== '' ? agent : null;
};

export function accountRoutes(deps: PeopleDeps, frameOf: FrameOf) {
  return async function register(app: FastifyInstance) {
    app.get('/sign-in', async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      if (request.person) return seeOther(reply, safeNext(query.next ?? '/app'));
      return sendPage(
        reply,
        SignInPage({
          frame: frameOf(request, reply),
          email: '',
          next: safeNext(query.next ?? '/app'),
          notice: noticeOf(query),
        }),
      );
    });

    app.post('/sign-in', { preHandler: app.csrfProtection }, async (request, reply) => {
      const form = request.body as FormBody;
      const email = field(form, 'email');
      const next = safeNext(field(form, 'next'));
      try {
        const { token, person } = await signIn(deps, {
          email,
          password: field(form, 'password'),
          clientAddress: request.ip,
          userAgent: userAgentOf(request),
        });
        setSessionCookie(request, reply, token, deps.sessionPolicy.maxDays * 86_400);
        request.person = person;
        return seeOther(reply, next);
      } catch (error) {
        if (!(error instanceof SignInRefusedError || error instanceof SignInThrottledError)) throw error;
        if (error instanceof SignInThrottledError)
          reply.header('retry-after', String(error.retryAfterSeconds));
        const status = error instanceof SignInThrottledError ? 429 : 401;
        return sendPage(
          reply,
          SignInPage({ frame: frameOf(request, reply), email, next, error: error.message }),
          status,
        );
      }
    });

    app.post('/sign-out', { preHandler: app.csrfProtection }, async (request, reply) => {
      if (request.person) await signOut(deps, request.person);
      clearSessionCookie(request, reply);
      return seeOther(reply, '/app/sign-in', 'signed-out');
    });

    app.get<{ Params: { token: string } }>('/invite/:token', async (request, reply) => {
      const invitee = await findInvite(deps, request.params.token);
      return sendPage(
        reply,
        InvitePage({ frame: frameOf(request, reply), token: request.params.token, invitee, problems: [] }),
        invitee ? 200 : 404,
      );
    });

    app.post<{ Params: { token: string } }>(
      '/invite/:token',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const { token } = request.params;
        const password = field(request.body as FormBody, 'password');
        const invitee = await findInvite(deps, token);
        try {
          await acceptInvite(deps, token, password);
        } catch (error) {
          if (error instanceof ValidationError) {
            return sendPage(
              reply,
              InvitePage({ frame: frameOf(request, reply), token, invitee, problems: error.problems }),
              400,
            );
          }
          if (error instanceof NotFoundError) {
            return sendPage(
              reply,
              InvitePage({ frame: frameOf(request, reply), token, invitee: undefined, problems: [] }),
              404,
            );
          }
          throw error;
        }
        // The person just proved the invitation and chose the password: they are signed in at once.
        try {
          const { token: session } = await signIn(deps, {
            email: invitee?.email ?? '',
            password,
            clientAddress: request.ip,
            userAgent: userAgentOf(request),
          });
          setSessionCookie(request, reply, session, deps.sessionPolicy.maxDays * 86_400);
          return seeOther(reply, '/app', 'password-set');
        } catch {
          return seeOther(reply, '/app/sign-in', 'password-set');
        }
      },
    );

    app.get('/sessions', { preHandler: requirePerson }, async (request, reply) => {
      const sessions = await listOwnSessions(deps, request.person!);
      return sendPage(
        reply,
        SessionsPage({ frame: frameOf(request, reply), sessions, notice: noticeOf(request.query) }),
      );
    });

    app.post<{ Params: { id: string } }>(
      '/sessions/:id/end',
      { preHandler: [app.csrfProtection, requirePerson] },
      async (request, reply) => {
        const person = request.person!;
        await endOwnSession(deps, person, request.params.id);
        if (request.params.id === person.sessionId) {
          clearSessionCookie(request, reply);
          return seeOther(reply, '/app/sign-in', 'signed-out');
        }
        return seeOther(reply, '/app/sessions', 'session-ended');
      },
    );
  };
}
