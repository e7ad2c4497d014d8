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
  const url = notice ? `${location}${location.includes('?') ? '&' : '?'}notice=${notice}` : location;
  return reply.code(303).header('location', url).header('cache-control', 'no-store').send();
}
