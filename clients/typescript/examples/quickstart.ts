/**
 * Create an event, read it, add an agenda session and list every event, with the typed client.
 *
 *   EVENTPLAN_API_KEY=evp_… npx tsx clients/typescript/examples/quickstart.ts
 *   (EVENTPLAN_URL defaults to http://127.0.0.1:3000)
 */
import { pathToFileURL } from 'node:url';
import { createEventplanClient, type EventplanClient, EventplanError } from '../src/index.js';

export async function quickstart(client: EventplanClient, log: (line: string) => void = console.log) {
  // 1. Create. The Idempotency-Key makes a retry after a network error safe: no second event.
  const created = await client.POST('/v1/events', {
    params: { header: { 'Idempotency-Key': `quickstart-${crypto.randomUUID()}` } },
    body: {
      name: 'Sales kickoff',
      formattedLocations: [{ city: 'Lisbon', country: 'Portugal' }],
      eventDates: [{ startDate: '2027-03-01', endDate: '2027-03-03' }],
      numPeople: 120,
    },
  });
  if (!created.data) throw new EventplanError(created.response, created.error);
  const { id, grantedTo } = created.data;
  log(`created ${id} (visible to ${grantedTo} people)`);

  // 2. Read it, with its ETag.
  const read = await client.GET('/v1/events/{id}', { params: { path: { id } } });
  if (!read.data) throw new EventplanError(read.response, read.error);
  const etag = read.response.headers.get('etag') ?? '*';
  log(`read "${read.data.name}" in ${read.data.location}, ETag ${etag}`);

  // 3. Add a session, only if nobody changed the event since it was read (else 412).
  const updated = await client.PATCH('/v1/events/{id}', {
    params: { path: { id }, header: { 'If-Match': etag } },
    body: {
      budgetBreakdown: { venue: 25000, fb: 8000.5 },
      agendaOperations: [
        {
          op: 'add',
          session: { title: 'Opening plenary', dates: ['2027-03-01'], startTime: '09:00', endTime: '10:30' },
        },
      ],
    },
  });
  if (!updated.data) throw new EventplanError(updated.response, updated.error);
  log(`agenda: ${updated.data.agenda.map((session) => `${session.title} (${session.id})`).join(', ')}`);

  // 4. List every event of the organization, page after page.
  const names: string[] = [];
  for await (const event of client.listAllEvents()) names.push(event.name);
  log(`the organization has ${names.length} event(s)`);

  return { id, event: updated.data, etag: updated.response.headers.get('etag'), listed: names.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const apiKey = process.env.EVENTPLAN_API_KEY;
  if (!apiKey) {
    console.error('Set EVENTPLAN_API_KEY (printed by `npx eventplan demo` or at the first start).');
    process.exit(2);
  }
  const client = createEventplanClient({
    baseUrl: process.env.EVENTPLAN_URL ?? 'http://127.0.0.1:3000',
    apiKey,
    onRetry: ({ waitMs }) => console.error(`rate limited; retrying in ${waitMs} ms`),
  });
  await quickstart(client);
}
