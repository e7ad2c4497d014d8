/**
 * A page of the dashboard is one module (Remix's route modules are the model): its loader (GET → use
 * case → view model → markup) and its actions (POST → use case → 303 to a page to GET, or the page
 * again with the person's input and its problems), under the patterns of `href.ts`. Each handler gets
 * one `PageRequest` holding what it needs; the form token and the sign-in are checked before it runs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { PeopleDeps, Person } from '../app/people.js';
import type { FormBody } from './forms.js';
import { type FrameOf, requirePerson } from './guard.js';
import type { RouteParams, RoutePattern } from './href.js';
import type { Frame } from './layout.js';
import { type NoticeCode, noticeOf } from './notices.js';
import { seeOther, sendPage } from './render.js';

export interface PageRequest<Pattern extends string = string> {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly deps: PeopleDeps;
  /** The address's parameters, named as in its pattern. */
  readonly params: RouteParams<Pattern>;
  readonly query: Record<string, unknown>;
  /** What the form posted (nothing for a GET). */
  readonly form: FormBody;
  /** The signed-in person. Pages open to anyone read `request.person`, which may be unset. */
  readonly person: Person;
  /** The message a redirect named (`?notice=saved`), if any. */
  readonly notice: string | undefined;
  /** The frame the page is drawn in: assets, the person, the form token. */
  frame(): Frame;
  /** Sends a page, 200 unless said otherwise. */
  render(page: VNode, status?: number): FastifyReply;
  /** Post/Redirect/Get: 303 to the page that shows the change, with a notice when named. */
  redirect(location: string, notice?: NoticeCode): FastifyReply;
  /** The same 404 page as an address that names nothing. */
  notFound(): void;
}

type Handler<Pattern extends string> = (page: PageRequest<Pattern>) => unknown;

/** Who may open a page: signed-in people (the sign-in page for anyone else), or anyone. */
type Access = 'person' | 'anyone';

export interface PageRoute {
  method: 'GET' | 'POST';
  pattern: RoutePattern;
  access: Access;
  handle: Handler<string>;
}

/** A page's loader and actions, each under its own address. */
export type PageModule = readonly PageRoute[];

const pageRoute =
  (method: PageRoute['method']) =>
  <Pattern extends RoutePattern>(pattern: Pattern, handle: Handler<Pattern>, access: Access = 'person') =>
    ({ method, pattern, access, handle: handle as Handler<string> }) satisfies PageRoute;

/** GET: what the page shows. It never changes anything (D15). */
export const loader = pageRoute('GET');

/** POST: a change, made only with the form token bound to the session (D15). */
export const action = pageRoute('POST');

/** Registers every route of every page: a POST without its form token is a 403 and writes nothing. */
export function registerPages(
  app: FastifyInstance,
  pages: readonly PageModule[],
  deps: PeopleDeps,
  frameOf: FrameOf,
) {
  for (const route of pages.flat()) {
    app.route({
      method: route.method,
      url: route.pattern,
      preHandler: [
        ...(route.method === 'POST' ? [app.csrfProtection] : []),
        ...(route.access === 'person' ? [requirePerson] : []),
      ],
      handler: async (request, reply) => route.handle(pageRequest(request, reply, deps, frameOf)),
    });
  }
}

function pageRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PeopleDeps,
  frameOf: FrameOf,
): PageRequest {
  let frame: Frame | undefined;
  return {
    request,
    reply,
    deps,
    params: request.params as Record<string, string>,
    query: (request.query ?? {}) as Record<string, unknown>,
    form: (request.body ?? {}) as FormBody,
    get person() {
      if (!request.person) throw new Error('A page for signed-in people ran without one.');
      return request.person;
    },
    notice: noticeOf(request.query),
    frame: () => {
      frame ??= frameOf(request, reply);
      return frame;
    },
    render: (page, status) => sendPage(reply, page, status),
    redirect: (location, notice) => seeOther(reply, location, notice),
    notFound: () => reply.callNotFound(),
  };
}
