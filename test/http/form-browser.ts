/**
 * A browser of one for the dashboard over `inject`: it keeps its cookies and the form token of the last
 * page it read, and reads a page's form as a browser would submit it.
 */
import type { LightMyRequestResponse } from 'fastify';
import { href } from '../../src/web/href.js';
import type { TestApp } from '../helpers/test-app.js';

export const PASSWORD = 'correct horse battery staple';
const FORM = 'application/x-www-form-urlencoded';

/** The text a person reads: tags dropped, entities decoded, spaces collapsed. */
export const readable = (html: string) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

export function browserFor(t: TestApp, headers: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  let token = '';
  const remember = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies) {
      if (cookie.maxAge === 0 || cookie.value === '') jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1] ?? token;
    return response;
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return {
    jar,
    get: async (url: string) =>
      remember(await t.app.inject({ method: 'GET', url, headers: { ...headers, cookie: cookie() } })),
    post: async (url: string, fields: Record<string, string> | [string, string][], withToken = true) => {
      const payload = new URLSearchParams(fields);
      if (withToken && !payload.has('_csrf')) payload.set('_csrf', token);
      return remember(
        await t.app.inject({
          method: 'POST',
          url,
          headers: { ...headers, cookie: cookie(), 'content-type': FORM },
          payload: payload.toString(),
        }),
      );
    },
    async signIn(email = 'planner@example.com', password = PASSWORD) {
      await this.get(href.signIn());
      return this.post(href.signIn(), { email, password, next: href.events() });
    },
  };
}

const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');

function attribute(tag: string, name: string): string | undefined {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return value === undefined ? undefined : decode(value);
}

/**
 * What submitting the form posting to `action` sends, unchanged: its text, hidden and date inputs,
 * ticked checkboxes and textareas, in document order. Enough for the dashboard's own forms.
 */
export function formFields(html: string, action: string): [string, string][] {
  const form = new RegExp(`<form[^>]*action="${action}"[^>]*>([\\s\\S]*?)</form>`).exec(html)?.[1];
  if (form === undefined) throw new Error(`no form posting to ${action}`);
  const fields: [string, string][] = [];
  for (const match of form.matchAll(/<input\b[^>]*>|<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const tag = match[0];
    const name = attribute(tag, 'name');
    if (name === undefined) continue;
    if (tag.startsWith('<textarea')) {
      fields.push([name, decode(match[2] ?? '')]);
      continue;
    }
    const type = attribute(tag, 'type') ?? 'text';
    if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/.test(tag)) continue;
    fields.push([name, attribute(tag, 'value') ?? (type === 'checkbox' ? 'on' : '')]);
  }
  return fields;
}
