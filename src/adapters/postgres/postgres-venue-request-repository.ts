import type { Pool, PoolClient } from 'pg';
import { NothingToSendError, RequestChangedError } from '../../domain/errors.js';
import type { Proposal } from '../../domain/proposal.js';
import { venueSummary } from '../../domain/venue.js';
import type { RequestStatus, VenueRequest } from '../../domain/venue-request.js';
import type { SourcingWrite } from '../../ports/event-repository.js';
import type { TaskSubject } from '../../ports/schedule.js';
import type {
  RequestAddress,
  RequestWithProposal,
  VenueRequestRepository,
} from '../../ports/venue-request-repository.js';
import { answerColumn, type QuestionRow, toQuestion } from '../question-rows.js';
import { toVersion, VERSION_SENT_MEANWHILE, type VersionRow } from '../request-version-rows.js';
import { query } from './postgres-transaction.js';

interface RequestRow {
  id: string;
  event_id: string;
  status: RequestStatus;
  response_due_date: string | null;
  sent_at: Date | null;
  viewed_at: Date | null;
  responded_at: Date | null;
  turn_down: string | null;
  decision: string | null;
  reminded_at: Date | null;
  reminder_settled_at: Date | null;
  due_date_told_at: Date | null;
  created_at: Date;
  updated_at: Date;
  venue: string;
}

interface ProposalRow {
  id: string;
  request_id: string;
  revision: number;
  submitted_at: Date;
  submitted_by: Proposal['submittedBy'];
  terms: string;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

const REQUEST_COLUMNS = `r.id, r.event_id, r.status, r.response_due_date, r.sent_at, r.viewed_at, r.responded_at,
  r.turn_down, r.decision, r.reminded_at, r.reminder_settled_at, r.due_date_told_at, r.created_at, r.updated_at,
  v.document AS venue`;
const REQUEST_FROM = `venue_requests r
  JOIN venues v ON v.organization_id = r.organization_id AND v.id = r.venue_id`;
const PROPOSAL_COLUMNS = 'p.id, p.request_id, p.revision, p.submitted_at, p.submitted_by, p.terms';

function toRequest(row: RequestRow): VenueRequest {
  return {
    id: row.id,
    eventId: row.event_id,
    venue: venueSummary(JSON.parse(row.venue)),
    status: row.status,
    responseDueDate: row.response_due_date,
    sentAt: iso(row.sent_at),
    viewedAt: iso(row.viewed_at),
    respondedAt: iso(row.responded_at),
    turnDown: row.turn_down === null ? null : JSON.parse(row.turn_down),
    decision: row.decision === null ? null : JSON.parse(row.decision),
    remindedAt: iso(row.reminded_at),
    reminderSettledAt: iso(row.reminder_settled_at),
    dueDateToldAt: iso(row.due_date_told_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toProposal(row: ProposalRow): Proposal {
  return {
    id: row.id,
    requestId: row.request_id,
    revision: row.revision,
    submittedAt: row.submitted_at.toISOString(),
    submittedBy: row.submitted_by,
    // Kept with the terms; a proposal stored before versions and reply dates answered version 1, on time.
    requestVersion: 1,
    late: false,
    ...JSON.parse(row.terms),
  };
}

function withLatest(requests: RequestRow[], latest: ProposalRow[]): RequestWithProposal[] {
  const byRequest = new Map(latest.map((row) => [row.request_id, row]));
  return requests.map((row) => {
    const proposal = byRequest.get(row.id);
    return { request: toRequest(row), proposal: proposal ? toProposal(proposal) : null };
  });
}

/**
 * The event's requests with their latest proposals, on `db`: inside a sourcing write's transaction
 * (after the event's row lock) or on the pool for a plain read.
 */
export async function readSourcing(
  db: Pool | PoolClient,
  organizationId: string,
  eventId: string,
): Promise<RequestWithProposal[]> {
  const [requests, latest] = await Promise.all([
    query<RequestRow>(
      db,
      `SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM}
       WHERE r.organization_id = $1 AND r.event_id = $2 ORDER BY r.created_at, r.id`,
      [organizationId, eventId],
      'venue-requests-of-event',
    ),
    query<ProposalRow>(
      db,
      `SELECT DISTINCT ON (p.request_id) ${PROPOSAL_COLUMNS} FROM proposals p
       WHERE p.organization_id = $1 AND p.event_id = $2 ORDER BY p.request_id, p.revision DESC`,
      [organizationId, eventId],
      'latest-proposals-of-event',
    ),
  ]);
  return withLatest(requests.rows, latest.rows);
}

/** Saves the requests, removes the removed ones and adds the proposals of a sourcing write, in its transaction. */
export async function writeSourcing(
  client: PoolClient,
  organizationId: string,
  eventId: string,
  write: SourcingWrite,
): Promise<void> {
  if (write.openedOn !== undefined) {
    const { rows } = await query<{ version: number | null }>(
      client,
      'SELECT MAX(version) AS version FROM request_versions WHERE organization_id = $1 AND event_id = $2',
      [organizationId, eventId],
      'latest-request-version',
    );
    if ((rows[0]?.version ?? 0) !== write.openedOn) throw new RequestChangedError(write.openedOn);
  }
  if (write.version) {
    // Judged before the first write, under the event's row lock: a version sent meanwhile refuses this one.
    const { rows } = await query<{ version: number | null }>(
      client,
      'SELECT MAX(version) AS version FROM request_versions WHERE organization_id = $1 AND event_id = $2',
      [organizationId, eventId],
      'latest-request-version',
    );
    if ((rows[0]?.version ?? 0) !== write.version.version - 1) {
      throw new NothingToSendError(VERSION_SENT_MEANWHILE);
    }
  }
  // Version 1 is the first send's: a later send finds it there and leaves it as it is.
  for (const version of [write.version, write.firstVersion]) {
    if (!version) continue;
    await query(
      client,
      `INSERT INTO request_versions (organization_id, event_id, version, sent_at, sent_by, message, changes, snapshot)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (organization_id, event_id, version) DO NOTHING`,
      [
        organizationId,
        eventId,
        version.version,
        version.sentAt,
        JSON.stringify(version.sentBy),
        version.message,
        JSON.stringify(version.changes),
        JSON.stringify(version.snapshot),
      ],
      'insert-request-version',
    );
  }
  for (const question of write.questions ?? []) {
    await query(
      client,
      `INSERT INTO venue_questions (organization_id, id, event_id, request_id, venue_id, text, asked_at, answer)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (organization_id, id) DO UPDATE SET answer = excluded.answer`,
      [
        organizationId,
        question.id,
        question.eventId,
        question.requestId,
        question.venueId,
        question.text,
        question.askedAt,
        answerColumn(question),
      ],
      'save-venue-question',
    );
  }
  const links = write.links ?? [];
  if (links.length > 0) {
    await query(
      client,
      `INSERT INTO venue_request_links (token_hash, organization_id, request_id, created_at)
       SELECT token_hash, $1::text, request_id, created_at
       FROM unnest($2::text[], $3::text[], $4::timestamptz[]) AS l(token_hash, request_id, created_at)`,
      [
        organizationId,
        links.map((link) => link.tokenHash),
        links.map((link) => link.requestId),
        links.map((link) => link.createdAt),
      ],
      'insert-request-links',
    );
  }
  const saved = write.requests.saved;
  if (saved.length > 0) {
    const column = <T>(read: (entry: (typeof saved)[number]) => T) => saved.map(read);
    // A request saved again keeps its token hash unless the step made a new one.
    await query(
      client,
      `INSERT INTO venue_requests (organization_id, id, event_id, venue_id, status, response_due_date, sent_at,
         viewed_at, responded_at, turn_down, decision, token_hash, created_at, updated_at, reminded_at,
         reminder_settled_at, due_date_told_at)
       SELECT $1::text, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
         $8::timestamptz[], $9::timestamptz[], $10::text[], $11::text[], $12::text[], $13::timestamptz[],
         $14::timestamptz[], $15::timestamptz[], $16::timestamptz[], $17::timestamptz[])
       ON CONFLICT (organization_id, id) DO UPDATE SET status = excluded.status,
         response_due_date = excluded.response_due_date, sent_at = excluded.sent_at,
         viewed_at = excluded.viewed_at, responded_at = excluded.responded_at, turn_down = excluded.turn_down,
         decision = excluded.decision, token_hash = COALESCE(excluded.token_hash, venue_requests.token_hash),
         updated_at = excluded.updated_at, reminded_at = excluded.reminded_at,
         reminder_settled_at = excluded.reminder_settled_at, due_date_told_at = excluded.due_date_told_at`,
      [
        organizationId,
        column(({ request }) => request.id),
        column(({ request }) => request.eventId),
        column(({ request }) => request.venue.id),
        column(({ request }) => request.status),
        column(({ request }) => request.responseDueDate),
        column(({ request }) => request.sentAt),
        column(({ request }) => request.viewedAt),
        column(({ request }) => request.respondedAt),
        column(({ request }) => (request.turnDown === null ? null : JSON.stringify(request.turnDown))),
        column(({ request }) => (request.decision === null ? null : JSON.stringify(request.decision))),
        column(({ tokenHash }) => tokenHash ?? null),
        column(({ request }) => request.createdAt),
        column(({ request }) => request.updatedAt),
        column(({ request }) => request.remindedAt),
        column(({ request }) => request.reminderSettledAt),
        column(({ request }) => request.dueDateToldAt),
      ],
    );
  }
  if (write.requests.removed.length > 0) {
    await query(
      client,
      'DELETE FROM venue_requests WHERE organization_id = $1 AND event_id = $2 AND id = ANY($3::text[])',
      [organizationId, eventId, [...write.requests.removed]],
    );
  }
  if (write.proposals.length > 0) {
    const column = <T>(read: (entry: (typeof write.proposals)[number]) => T) => write.proposals.map(read);
    await query(
      client,
      `INSERT INTO proposals (organization_id, id, event_id, request_id, revision, submitted_at, submitted_by, terms)
       SELECT $1::text, * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::text[],
         $8::text[])`,
      [
        organizationId,
        column(({ proposal }) => proposal.id),
        column(({ eventId: proposalEventId }) => proposalEventId),
        column(({ proposal }) => proposal.requestId),
        column(({ proposal }) => proposal.revision),
        column(({ proposal }) => proposal.submittedAt),
        column(({ proposal }) => proposal.submittedBy),
        column(({ proposal }) => {
          const {
            id: _id,
            requestId: _request,
            revision: _revision,
            submittedAt: _at,
            submittedBy: _by,
            ...terms
          } = proposal;
          return JSON.stringify(terms);
        }),
      ],
    );
  }
}

export function createPostgresVenueRequestRepository(pool: Pool): VenueRequestRepository {
  const address = async (where: string, value: string): Promise<RequestAddress | undefined> => {
    const { rows } = await query<RequestAddress>(
      pool,
      `SELECT organization_id AS "organizationId", event_id AS "eventId", id AS "requestId",
         venue_id AS "venueId"
       FROM venue_requests WHERE ${where} = $1`,
      [value],
    );
    return rows[0];
  };
  return {
    listForEvent(organizationId, eventId) {
      return readSourcing(pool, organizationId, eventId);
    },
    async remindersDue({ task, now, from, to, limit }) {
      // The window of reply dates through the partial index of requests awaiting a reminder.
      const { rows } = await query<TaskSubject>(
        pool,
        `SELECT r.organization_id AS "organizationId", r.event_id AS "eventId", r.id
         FROM venue_requests r
         JOIN events e ON e.organization_id = r.organization_id AND e.id = r.event_id
         WHERE r.status IN ('sent', 'viewed') AND r.reminder_settled_at IS NULL
           AND r.response_due_date BETWEEN $1 AND $2
           AND e.status IN ('wait_for_proposals', 'proposals_received')
           AND NOT EXISTS (SELECT 1 FROM scheduled_leases l
             WHERE l.organization_id = r.organization_id AND l.task = $3 AND l.subject_id = r.id
               AND l.leased_until > $4)
         ORDER BY r.response_due_date, r.organization_id, r.id
         LIMIT $5`,
        [from, to, task, now, limit],
        'reminders-due',
      );
      return rows;
    },
    async find(organizationId, eventId, requestId) {
      const { rows } = await query<RequestRow>(
        pool,
        `SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM}
         WHERE r.organization_id = $1 AND r.event_id = $2 AND r.id = $3`,
        [organizationId, eventId, requestId],
      );
      const row = rows[0];
      if (!row) return undefined;
      const latest = await query<ProposalRow>(
        pool,
        `SELECT ${PROPOSAL_COLUMNS} FROM proposals p WHERE p.organization_id = $1 AND p.request_id = $2
         ORDER BY p.revision DESC LIMIT 1`,
        [organizationId, requestId],
      );
      return withLatest([row], latest.rows)[0];
    },
    async proposals(organizationId, requestId) {
      const { rows } = await query<ProposalRow>(
        pool,
        `SELECT ${PROPOSAL_COLUMNS} FROM proposals p WHERE p.organization_id = $1 AND p.request_id = $2
         ORDER BY p.revision DESC`,
        [organizationId, requestId],
      );
      return rows.map(toProposal);
    },
    async findByTokenHash(tokenHash) {
      const first = await address('token_hash', tokenHash);
      if (first) return first;
      const { rows } = await query<RequestAddress>(
        pool,
        `SELECT r.organization_id AS "organizationId", r.event_id AS "eventId", r.id AS "requestId",
           r.venue_id AS "venueId"
         FROM venue_request_links l
         JOIN venue_requests r ON r.organization_id = l.organization_id AND r.id = l.request_id
         WHERE l.token_hash = $1`,
        [tokenHash],
      );
      return rows[0];
    },
    async versions(organizationId, eventId) {
      const { rows } = await query<VersionRow>(
        pool,
        `SELECT version, sent_at, sent_by, message, changes, snapshot FROM request_versions
         WHERE organization_id = $1 AND event_id = $2 ORDER BY version DESC`,
        [organizationId, eventId],
        'request-versions',
      );
      return rows.map(toVersion);
    },
    locate(requestId) {
      return address('id', requestId);
    },
    async questions(organizationId, eventId) {
      const { rows } = await query<QuestionRow>(
        pool,
        `SELECT id, event_id, request_id, venue_id, text, asked_at, answer FROM venue_questions
         WHERE organization_id = $1 AND event_id = $2 ORDER BY asked_at, id`,
        [organizationId, eventId],
        'venue-questions',
      );
      return rows.map(toQuestion);
    },
    async withUnansweredQuestions(organizationId, eventIds) {
      if (eventIds.length === 0) return new Set();
      const { rows } = await query<{ event_id: string }>(
        pool,
        `SELECT DISTINCT event_id FROM venue_questions
         WHERE organization_id = $1 AND answer IS NULL AND event_id = ANY($2::text[])`,
        [organizationId, eventIds],
        'events-with-unanswered-questions',
      );
      return new Set(rows.map((row) => row.event_id));
    },
  };
}
