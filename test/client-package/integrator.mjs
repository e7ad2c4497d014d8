// What an integrator writes after `npm install @eventplan/client`: plain Node ESM, no TypeScript.
// Run by pack.test.ts inside a temporary project; prints one JSON line of what it saw.
import { createEventplanClient, EventplanError, verifyWebhook } from '@eventplan/client';

const { EVENTPLAN_URL, EVENTPLAN_API_KEY, WEBHOOK } = process.env;
const api = createEventplanClient({ baseUrl: EVENTPLAN_URL, apiKey: EVENTPLAN_API_KEY });

const created = await api.POST('/v1/events', { body: { name: 'Packed client kickoff' } });
if (!created.data) throw new EventplanError(created.response, created.error);

const listed = [];
for await (const event of api.listAllEvents({ pageSize: 2 })) listed.push(event.id);

const changes = [];
for await (const page of api.changeFeed()) changes.push(...page.data);

const webhook = JSON.parse(WEBHOOK);
const payload = verifyWebhook(webhook.secret, webhook.headers, webhook.body);
let tampered = 'accepted';
try {
  verifyWebhook(webhook.secret, webhook.headers, `${webhook.body} `);
} catch (error) {
  tampered = `${error.name}:${error.code}`;
}

process.stdout.write(
  `${JSON.stringify({
    id: created.data.id,
    listed,
    changeTypes: changes.map((change) => `${change.type}:${change.eventId}`),
    payloadType: payload.type,
    tampered,
  })}\n`,
);
