/** Sends a page: server-rendered HTML (escaped by default), never cached, as a 200 or an error status. */
import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';
import type { NoticeCode } from './notices.js';

export function sendPage(reply: FastifyReply, page: VNode, status = 200) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html>${render(page)}`);
}

/** Post/Redirect/Get: after a change, the browser GETs the page that shows it. */
export function seeOther(reply: FastifyReply, location: string, notice?: NoticeCode) {
  return reply
    .code(303)
    .header('location', notice ? withNotice(location, notice) : location)
    .header('cache-control', 'no-store')
    .send();
}

/** The notice goes in the query, before any fragment (`/events/1?notice=saved#rooms`), or the page never sees it. */
export function withNotice(location: string, notice: NoticeCode): string {
  const hashAt = location.indexOf('#');
  const [path, hash] = hashAt === -1 ? [location, ''] : [location.slice(0, hashAt), location.slice(hashAt)];
  return `${path}${path.includes('?') ? '&' : '?'}notice=${notice}${hash}`;
}
