import type { Database } from 'better-sqlite3';
import { NothingToSendError, RequestChangedError } from '../../domain/errors.js';
import type { Proposal } from '../../domain/proposal.js';
import type { StoredRequestVersion } from '../../domain/request-versions.js';
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

interface RequestRow {
  id: string;
  event_id: string;
  status: RequestStatus;
  response_due_date: string | null;
  sent_at: string | null;
  viewed_at: string | null;
  responded_at: string | null;
  turn_down: string | null;
  decision: string | null;
  reminded_at: string | null;
  reminder_settled_at: string | null;
  due_date_told_at: string | null;
  created_at: string;
  updated_at: string;
  venue: string;
}

interface ProposalRow {
  id: string;
  request_id: string;
  revision: number;
  submitted_at: string;
  submitted_by: Proposal['submittedBy'];
  terms: string;
}

const REQUEST_COLUMNS = `r.id, r.event_id, r.status, r.response_due_date, r.sent_at, r.viewed_at, r.responded_at,
  r.turn_down, r.decision, r.reminded_at, r.reminder_settled_at, r.due_date_told_at, r.created_at, r.updated_at,
  v.document AS venue`;
const REQUEST_FROM = `venue_requests r
  JOIN venues v ON v.organization_id = r.organization_id AND v.id = r.venue_id`;

function toRequest(row: RequestRow): VenueRequest {
  return {
    id: row.id,
    eventId: row.event_id,
    venue: venueSummary(JSON.parse(row.venue)),
    status: row.status,
    responseDueDate: row.response_due_date,
    sentAt: row.sent_at,
    viewedAt: row.viewed_at,
    respondedAt: row.responded_at,
    turnDown: row.turn_down === null ? null : JSON.parse(row.turn_down),
    decision: row.decision === null ? null : JSON.parse(row.decision),
    remindedAt: row.reminded_at,
    reminderSettledAt: row.reminder_settled_at,
    dueDateToldAt: row.due_date_told_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toProposal(row: ProposalRow): Proposal {
  return {
    id: row.id,
    requestId: row.request_id,
    revision: row.revision,
    submittedAt: row.submitted_at,
    submittedBy: row.submitted_by,
    // Kept with the terms; a proposal stored before versions and reply dates answered version 1, on time.
    requestVersion: 1,
    late: false,
    ...JSON.parse(row.terms),
  };
}

const PROPOSAL_COLUMNS = 'p.id, p.request_id, p.revision, p.submitted_at, p.submitted_by, p.terms';
/** Only each request's newest revision. */
const LATEST = `p.revision = (SELECT MAX(q.revision) FROM proposals q
  WHERE q.organization_id = p.organization_id AND q.request_id = p.request_id)`;

/** The reads a sourcing write makes inside its transaction, and the repository's reads. */
export function prepareSourcingReads(db: Database) {
  const requestsOfEvent = db.prepare(
    `SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM}
     WHERE r.organization_id = ? AND r.event_id = ? ORDER BY r.created_at, r.id`,
  );
  const latestOfEvent = db.prepare(
    `SELECT ${PROPOSAL_COLUMNS} FROM proposals p WHERE p.organization_id = ? AND p.event_id = ? AND ${LATEST}`,
  );
  const oneRequest = db.prepare(
    `SELECT ${REQUEST_COLUMNS} FROM ${REQUEST_FROM} WHERE r.organization_id = ? AND r.event_id = ? AND r.id = ?`,
  );
  const latestOfRequest = db.prepare(
    `SELECT ${PROPOSAL_COLUMNS} FROM proposals p WHERE p.organization_id = ? AND p.request_id = ?
     ORDER BY p.revision DESC LIMIT 1`,
  );
  const forEvent = (organizationId: string, eventId: string): RequestWithProposal[] => {
    const latest = new Map(
      (latestOfEvent.all(organizationId, eventId) as ProposalRow[]).map((row) => [row.request_id, row]),
    );
    return (requestsOfEvent.all(organizationId, eventId) as RequestRow[]).map((row) => {
      const proposal = latest.get(row.id);
      return { request: toRequest(row), proposal: proposal ? toProposal(proposal) : null };
    });
  };
  const one = (organizationId: string, eventId: string, requestId: string) => {
    const row = oneRequest.get(organizationId, eventId, requestId) as RequestRow | undefined;
    if (!row) return undefined;
    const proposal = latestOfRequest.get(organizationId, requestId) as ProposalRow | undefined;
    return { request: toRequest(row), proposal: proposal ? toProposal(proposal) : null };
  };
  return { forEvent, one };
}

/** The writes of a sourcing write's requests and proposals, inside the caller's transaction. */
export function prepareSourcingWrites(db: Database) {
  // A request saved again keeps its token hash unless the step made a new one.
  const saveRequest = db.prepare(`
    INSERT INTO venue_requests (organization_id, id, event_id, venue_id, status, response_due_date, sent_at,
      viewed_at, responded_at, turn_down, decision, reminded_at, reminder_settled_at, due_date_told_at, token_hash,
      created_at, updated_at)
    VALUES (@organization_id, @id, @event_id, @venue_id, @status, @response_due_date, @sent_at, @viewed_at,
      @responded_at, @turn_down, @decision, @reminded_at, @reminder_settled_at, @due_date_told_at, @token_hash,
      @created_at, @updated_at)
    ON CONFLICT (organization_id, id) DO UPDATE SET status = excluded.status,
      response_due_date = excluded.response_due_date, sent_at = excluded.sent_at,
      viewed_at = excluded.viewed_at, responded_at = excluded.responded_at, turn_down = excluded.turn_down,
      decision = excluded.decision, reminded_at = excluded.reminded_at,
      reminder_settled_at = excluded.reminder_settled_at, due_date_told_at = excluded.due_date_told_at,
      token_hash = COALESCE(excluded.token_hash, venue_requests.token_hash), updated_at = excluded.updated_at`);
  const removeRequest = db.prepare(
    'DELETE FROM venue_requests WHERE organization_id = ? AND event_id = ? AND id = ?',
  );
  const insertProposal = db.prepare(`
    INSERT INTO proposals (organization_id, id, event_id, request_id, revision, submitted_at, submitted_by, terms)
    VALUES (@organization_id, @id, @event_id, @request_id, @revision, @submitted_at, @submitted_by, @terms)`);
  const latestVersion = db.prepare(
    'SELECT MAX(version) AS version FROM request_versions WHERE organization_id = ? AND event_id = ?',
  );
  const insertVersion = db.prepare(`
    INSERT INTO request_versions (organization_id, event_id, version, sent_at, sent_by, message, changes, snapshot)
    VALUES (@organization_id, @event_id, @version, @sent_at, @sent_by, @message, @changes, @snapshot)
    ON CONFLICT (organization_id, event_id, version) DO NOTHING`);
  const saveQuestion = db.prepare(`
    INSERT INTO venue_questions (organization_id, id, event_id, request_id, venue_id, text, asked_at, answer)
    VALUES (@organization_id, @id, @event_id, @request_id, @venue_id, @text, @asked_at, @answer)
    ON CONFLICT (organization_id, id) DO UPDATE SET answer = excluded.answer`);
  const insertLink = db.prepare(`
    INSERT INTO venue_request_links (token_hash, organization_id, request_id, created_at)
    VALUES (?, ?, ?, ?)`);
  const versionRow = (organizationId: string, eventId: string, version: StoredRequestVersion) => ({
    organization_id: organizationId,
    event_id: eventId,
    version: version.version,
    sent_at: version.sentAt,
    sent_by: JSON.stringify(version.sentBy),
    message: version.message,
    changes: JSON.stringify(version.changes),
    snapshot: JSON.stringify(version.snapshot),
  });
  return (organizationId: string, eventId: string, write: SourcingWrite) => {
    if (write.openedOn !== undefined) {
      const latest = (latestVersion.get(organizationId, eventId) as { version: number | null }).version ?? 0;
      if (latest !== write.openedOn) throw new RequestChangedError(write.openedOn);
    }
    if (write.version) {
      // Judged before the first write: a version sent meanwhile (a double click) refuses this one.
      const latest = (latestVersion.get(organizationId, eventId) as { version: number | null }).version ?? 0;
      if (latest !== write.version.version - 1) throw new NothingToSendError(VERSION_SENT_MEANWHILE);
      insertVersion.run(versionRow(organizationId, eventId, write.version));
    }
    // Version 1 is the first send's: a later send finds it there and leaves it as it is.
    if (write.firstVersion) insertVersion.run(versionRow(organizationId, eventId, write.firstVersion));
    for (const link of write.links ?? []) {
      insertLink.run(link.tokenHash, organizationId, link.requestId, link.createdAt);
    }
    for (const question of write.questions ?? []) {
      saveQuestion.run({
        organization_id: organizationId,
        id: question.id,
        event_id: question.eventId,
        request_id: question.requestId,
        venue_id: question.venueId,
        text: question.text,
        asked_at: question.askedAt,
        answer: answerColumn(question),
      });
    }
    for (const { request, tokenHash } of write.requests.saved) {
      saveRequest.run({
        organization_id: organizationId,
        id: request.id,
        event_id: request.eventId,
        venue_id: request.venue.id,
        status: request.status,
        response_due_date: request.responseDueDate,
        sent_at: request.sentAt,
        viewed_at: request.viewedAt,
        responded_at: request.respondedAt,
        turn_down: request.turnDown === null ? null : JSON.stringify(request.turnDown),
        decision: request.decision === null ? null : JSON.stringify(request.decision),
        reminded_at: request.remindedAt,
        reminder_settled_at: request.reminderSettledAt,
        due_date_told_at: request.dueDateToldAt,
        token_hash: tokenHash ?? null,
        created_at: request.createdAt,
        updated_at: request.updatedAt,
      });
    }
    for (const requestId of write.requests.removed) removeRequest.run(organizationId, eventId, requestId);
    for (const { eventId: proposalEventId, proposal } of write.proposals) {
      const { id, requestId, revision, submittedAt, submittedBy, ...terms } = proposal;
      insertProposal.run({
        organization_id: organizationId,
        id,
        event_id: proposalEventId,
        request_id: requestId,
        revision,
        submitted_at: submittedAt,
        submitted_by: submittedBy,
        terms: JSON.stringify(terms),
      });
    }
  };
}

export function createSqliteVenueRequestRepository(db: Database): VenueRequestRepository {
  const reads = prepareSourcingReads(db);
  const forEvent = db.transaction(reads.forEvent);
  const one = db.transaction(reads.one);
  const proposalsOf = db.prepare(
    `SELECT ${PROPOSAL_COLUMNS} FROM proposals p WHERE p.organization_id = ? AND p.request_id = ?
     ORDER BY p.revision DESC`,
  );
  const byTokenHash = db.prepare(
    `SELECT organization_id AS organizationId, event_id AS eventId, id AS requestId, venue_id AS venueId
     FROM venue_requests WHERE token_hash = ?`,
  );
  const byLinkHash = db.prepare(
    `SELECT r.organization_id AS organizationId, r.event_id AS eventId, r.id AS requestId, r.venue_id AS venueId
     FROM venue_request_links l
     JOIN venue_requests r ON r.organization_id = l.organization_id AND r.id = l.request_id
     WHERE l.token_hash = ?`,
  );
  const questionsOf = db.prepare(
    `SELECT id, event_id, request_id, venue_id, text, asked_at, answer FROM venue_questions
     WHERE organization_id = ? AND event_id = ? ORDER BY asked_at, id`,
  );
  const unansweredIn = db
    .prepare(
      `SELECT DISTINCT event_id FROM venue_questions WHERE organization_id = ? AND answer IS NULL
       AND event_id IN (SELECT value FROM json_each(?))`,
    )
    .pluck();
  const versionsOf = db.prepare(
    `SELECT version, sent_at, sent_by, message, changes, snapshot FROM request_versions
     WHERE organization_id = ? AND event_id = ? ORDER BY version DESC`,
  );
  const byId = db.prepare(
    `SELECT organization_id AS organizationId, event_id AS eventId, id AS requestId, venue_id AS venueId
     FROM venue_requests WHERE id = ?`,
  );
  // The window of reply dates through the partial index of requests awaiting a reminder.
  const remindersDue = db.prepare(`
    SELECT r.organization_id AS organizationId, r.event_id AS eventId, r.id
    FROM venue_requests r
    JOIN events e ON e.organization_id = r.organization_id AND e.id = r.event_id
    WHERE r.status IN ('sent', 'viewed') AND r.reminder_settled_at IS NULL
      AND r.response_due_date BETWEEN @from AND @to
      AND e.status IN ('wait_for_proposals', 'proposals_received')
      AND NOT EXISTS (SELECT 1 FROM scheduled_leases l
        WHERE l.organization_id = r.organization_id AND l.task = @task AND l.subject_id = r.id
          AND l.leased_until > @now)
    ORDER BY r.response_due_date, r.organization_id, r.id
    LIMIT @limit`);
  return {
    async listForEvent(organizationId, eventId) {
      return forEvent(organizationId, eventId);
    },
    async remindersDue(query) {
      return remindersDue.all(query) as TaskSubject[];
    },
    async find(organizationId, eventId, requestId) {
      return one(organizationId, eventId, requestId);
    },
    async proposals(organizationId, requestId) {
      return (proposalsOf.all(organizationId, requestId) as ProposalRow[]).map(toProposal);
    },
    async findByTokenHash(tokenHash) {
      return (byTokenHash.get(tokenHash) ?? byLinkHash.get(tokenHash)) as RequestAddress | undefined;
    },
    async versions(organizationId, eventId) {
      return (versionsOf.all(organizationId, eventId) as VersionRow[]).map(toVersion);
    },
    async questions(organizationId, eventId) {
      return (questionsOf.all(organizationId, eventId) as QuestionRow[]).map(toQuestion);
    },
    async withUnansweredQuestions(organizationId, eventIds) {
      if (eventIds.length === 0) return new Set();
      return new Set(unansweredIn.all(organizationId, JSON.stringify(eventIds)) as string[]);
    },
    async locate(requestId) {
      return byId.get(requestId) as RequestAddress | undefined;
    },
  };
}
