/**
 * A path segment with a broken percent-escape (`%zz`, `%E0%A4%A`) would stop in Fastify's router
 * with a bare 400, before authentication and rate limiting. Escaping its `%` signs keeps the text as
 * sent and lets the request take the normal way: a malformed event id is then a 400 naming `id`
 * (after the 401 and 429 checks, D5), an unknown path a 404.
 */
export function escapeMalformedPercents(url: string): string {
  if (!url.includes('%')) return url;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  const segments = path.split('/').map((segment) => {
    if (!segment.includes('%')) return segment;
    try {
      decodeURIComponent(segment);
      return segment;
    } catch {
      return segment.replaceAll('%', '%25');
    }
  });
  return segments.join('/') + query;
}
