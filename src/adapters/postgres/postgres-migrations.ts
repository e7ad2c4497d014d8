/**
 * Versioned schema for PostgreSQL: the same tables, names and migration versions as the embedded
 * store. Tenant-keyed: every table carries organization_id, every primary key starts with it, and
 * no unique constraint on a tenant table leaves it out, so the schema can be distributed by
 * organization on Citus (docs/scale-out.md). api_keys, looked up by key id on every request, is
 * the one table with a global unique index: on Citus it becomes a reference table.
 *
 * Identifiers use the "C" collation so that ordering (list pages, key lists, copy-data) is by
 * bytes, exactly as SQLite orders, whatever the database's default collation.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: '001_initial',
    sql: `
      CREATE TABLE organizations (
        id text COLLATE "C" PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        event_count integer NOT NULL DEFAULT 0
      );
      CREATE TABLE users (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        email text NOT NULL,
        name text,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, email)
      );
      -- Operator commands address a user by id alone; ids are random UUIDs.
      CREATE INDEX users_by_id ON users (id);
      CREATE TABLE groups (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX groups_by_id ON groups (id);
      CREATE TABLE group_members (
        organization_id text COLLATE "C" NOT NULL,
        group_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        role text NOT NULL CHECK (role IN ('member', 'approver')),
        PRIMARY KEY (organization_id, group_id, user_id)
      );
      CREATE INDEX group_members_user ON group_members (organization_id, user_id);
      CREATE TABLE api_keys (
        organization_id text COLLATE "C" NOT NULL,
        key_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_used_at timestamptz,
        PRIMARY KEY (organization_id, key_id)
      );
      CREATE UNIQUE INDEX api_keys_key_id ON api_keys (key_id);
      -- document and summary are the ready-to-send JSON texts: reads serve them without parsing.
      CREATE TABLE events (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        created_by text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        status text NOT NULL,
        previous_status text,
        document text NOT NULL,
        summary text NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX events_newest_first ON events (organization_id, created_at DESC, id DESC);
      CREATE INDEX events_by_id ON events (id);
      CREATE TABLE event_grants (
        organization_id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        PRIMARY KEY (organization_id, event_id, user_id)
      );
    `,
  },
  {
    version: 2,
    name: '002_idempotency_keys',
    sql: `
      -- Idempotency-Key of POST /v1/events: written in the create's transaction, kept 24 hours.
      CREATE TABLE idempotency_keys (
        organization_id text COLLATE "C" NOT NULL,
        idempotency_key text COLLATE "C" NOT NULL,
        request_hash text NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        granted_to integer NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, idempotency_key)
      );
      CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
    `,
  },
  {
    version: 3,
    name: '003_people',
    sql: `
      -- D15: people sign in to the dashboard. Passwords and tokens are stored only as hashes.
      CREATE TABLE user_passwords (
        organization_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        password_hash text NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, user_id)
      );
      -- Invites and sessions are looked up by token hash alone: plain indexes (a unique one would have
      -- to include organization_id); 190 random bits per token make a collision beyond reach.
      CREATE TABLE user_invites (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        token_hash text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX user_invites_token_hash ON user_invites (token_hash);
      CREATE INDEX user_invites_user ON user_invites (organization_id, user_id);
      CREATE TABLE user_sessions (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        token_hash text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        user_agent text,
        client_address text,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX user_sessions_token_hash ON user_sessions (token_hash);
      CREATE INDEX user_sessions_user ON user_sessions (organization_id, user_id);
      CREATE INDEX user_sessions_expires_at ON user_sessions (expires_at);
      -- Sign-in matches emails case-insensitively; under "C", lower() folds ASCII letters only, as SQLite's does.
      CREATE INDEX users_email_lower ON users (lower(email COLLATE "C"));
    `,
  },
  {
    version: 4,
    name: '004_change_log',
    sql: `
      -- The change log (D17): one record per committed change. Numbers are taken by updating the
      -- organization's row, whose lock is held to commit, so sequence order is commit order.
      ALTER TABLE organizations ADD COLUMN change_sequence bigint NOT NULL DEFAULT 0;
      CREATE TABLE event_changes (
        organization_id text COLLATE "C" NOT NULL,
        sequence bigint NOT NULL,
        id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        revision integer NOT NULL,
        type text NOT NULL,
        occurred_at timestamptz NOT NULL,
        actor text NOT NULL,
        changed_fields text NOT NULL,
        diff text NOT NULL,
        data text,
        snapshot text NOT NULL,
        PRIMARY KEY (organization_id, sequence),
        UNIQUE (organization_id, event_id, revision),
        UNIQUE (organization_id, id)
      );
      CREATE INDEX event_grants_by_user ON event_grants (organization_id, user_id);
      -- Keys every instance shares without configuration (the dashboard's form tokens), made on first use.
      -- Not tenant data: on Citus, a reference table.
      CREATE TABLE server_secrets (
        name text COLLATE "C" PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: '005_event_etags',
    sql: `
      -- The ETag of each event's document (app/etag.ts), made when the event is written, so a read
      -- sends it without hashing the document. Events stored before get theirs here, by the same
      -- definition: the first 32 characters of the base64url SHA-256 of the document, quoted.
      ALTER TABLE events ADD COLUMN etag text;
      UPDATE events
        SET etag = '"' || left(translate(encode(sha256(convert_to(document, 'UTF8')), 'base64'), '+/', '-_'), 32) || '"';
    `,
  },
  {
    version: 6,
    name: '006_event_filters',
    sql: `
      -- The filtered event list (status, updatedAfter): a status filter reads one status's events
      -- already newest first; updatedAfter reads only the events changed since.
      CREATE INDEX events_by_status ON events (organization_id, status, created_at DESC, id DESC);
      CREATE INDEX events_by_updated_at ON events (organization_id, updated_at);
    `,
  },
  {
    version: 7,
    name: '007_webhooks',
    sql: `
      -- Webhooks (D18). An endpoint's cursor is the last change sequence of its organization turned into
      -- deliveries for it; the change log is the durable outbox, deliveries are the attempts' queue.
      -- Instances share the queue: a claim sets locked_until (taken with FOR UPDATE SKIP LOCKED).
      CREATE TABLE webhook_endpoints (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        url text NOT NULL,
        enabled_events text NOT NULL,
        status text NOT NULL,
        disabled_reason text,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        cursor bigint NOT NULL,
        failing_since timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE TABLE webhook_deliveries (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        endpoint_id text COLLATE "C" NOT NULL,
        message_id text COLLATE "C" NOT NULL,
        type text NOT NULL,
        sequence bigint,
        payload text NOT NULL,
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        lease_token text,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        last_response_body text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, endpoint_id, message_id),
        FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (organization_id, endpoint_id, created_at);
    `,
  },
  {
    version: 8,
    name: '008_places',
    sql: `
      -- The gazetteer (GeoNames cities of 1,000 people or more). Not tenant data: on Citus, a reference
      -- table. Filled on start from the npm package when the version in places_source differs.
      CREATE TABLE places (
        id integer PRIMARY KEY,
        name text NOT NULL,
        name_key text COLLATE "C" NOT NULL,
        country_code text COLLATE "C" NOT NULL,
        admin_code text NOT NULL,
        population integer NOT NULL,
        latitude double precision NOT NULL,
        longitude double precision NOT NULL,
        time_zone text NOT NULL
      );
      CREATE INDEX places_by_name ON places (name_key, population DESC);
      CREATE INDEX places_by_country_name ON places (country_code, name_key, population DESC);
      CREATE TABLE places_source (
        name text PRIMARY KEY,
        version text NOT NULL,
        loaded_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 9,
    name: '009_mail_outbox',
    sql: `
      -- Mail (D25): one row per mail, written in the transaction of the change it tells of, sent by the
      -- mail dispatcher under a lease (locked_until, lease_token). text_body and html_body are erased
      -- once the mail is sent: they may carry links that grant access.
      CREATE TABLE mail_outbox (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        message_id text NOT NULL,
        recipient text NOT NULL,
        recipient_name text,
        reply_to text,
        reply_to_name text,
        subject text NOT NULL,
        text_body text,
        html_body text,
        status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        lease_token text,
        last_attempt_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL,
        sent_at timestamptz,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX mail_outbox_by_created ON mail_outbox (created_at, id);
      CREATE INDEX mail_outbox_by_recipient ON mail_outbox (lower(recipient), created_at);
    `,
  },
  {
    version: 10,
    name: '010_venue_sourcing',
    sql: `
      -- Venue sourcing (D20–D24). Venues are the organization's directory: the venue as JSON, with its
      -- name and city folded (lower case, no accents) for the name order and the search.
      CREATE TABLE venues (
        organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
        id text COLLATE "C" NOT NULL,
        name_key text COLLATE "C" NOT NULL,
        city_key text COLLATE "C" NOT NULL,
        archived_at timestamptz,
        document text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX venues_by_name ON venues (organization_id, name_key, id) WHERE archived_at IS NULL;
      -- One request for proposals per venue and event. token_hash is the SHA-256 of the venue's link
      -- token, set when the request is sent; the token itself is never stored. turn_down and decision
      -- are JSON ({ reason, comment }). Found by token hash alone through a plain index (a unique one
      -- would have to include organization_id); 190 random bits per token make a collision beyond reach.
      CREATE TABLE venue_requests (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        venue_id text COLLATE "C" NOT NULL,
        status text NOT NULL,
        response_due_date text,
        sent_at timestamptz,
        viewed_at timestamptz,
        responded_at timestamptz,
        turn_down text,
        decision text,
        token_hash text COLLATE "C",
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, event_id, venue_id)
      );
      CREATE INDEX venue_requests_by_event ON venue_requests (organization_id, event_id, created_at);
      CREATE INDEX venue_requests_by_token_hash ON venue_requests (token_hash);
      CREATE INDEX venue_requests_by_id ON venue_requests (id);
      -- Every revision of every proposal is kept (D23); the terms as JSON.
      CREATE TABLE proposals (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        request_id text COLLATE "C" NOT NULL,
        revision integer NOT NULL,
        submitted_at timestamptz NOT NULL,
        submitted_by text NOT NULL,
        terms text NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, request_id, revision)
      );
      CREATE INDEX proposals_by_event ON proposals (organization_id, event_id, request_id, revision);
    `,
  },
  {
    version: 11,
    name: '011_password_resets',
    sql: `
      -- "Forgot password": single-use links (1 hour) where a person chooses a new password, their tokens
      -- stored only hashed; apart from user_invites, so asking for one never voids an invitation.
      CREATE TABLE password_resets (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        token_hash text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX password_resets_token_hash ON password_resets (token_hash);
      CREATE INDEX password_resets_user ON password_resets (organization_id, user_id);
    `,
  },
  {
    version: 12,
    name: '012_notification_opt_outs',
    sql: `
      -- D24: the mails that tell people what waits for them, by kind; a row is a kind the person
      -- switched off on their account page (every kind is on until then).
      CREATE TABLE notification_opt_outs (
        organization_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL,
        PRIMARY KEY (organization_id, user_id, kind)
      );
    `,
  },
  {
    version: 14,
    name: '014_reply_dates_and_questions',
    sql: `
      -- D28: a request's reminder. reminded_at: when the venue was reminded of its current reply date;
      -- reminder_settled_at: when that reminder was sent or found not needed (null while it may be due);
      -- due_date_told_at: when the venue was last told its reply date (the request's mail, a move's).
      ALTER TABLE venue_requests ADD COLUMN reminded_at timestamptz;
      ALTER TABLE venue_requests ADD COLUMN reminder_settled_at timestamptz;
      ALTER TABLE venue_requests ADD COLUMN due_date_told_at timestamptz;
      UPDATE venue_requests SET due_date_told_at = sent_at WHERE sent_at IS NOT NULL;
      -- What a reminder round reads: requests still waiting for an answer, by reply date.
      CREATE INDEX venue_requests_awaiting_reminder ON venue_requests (response_due_date)
        WHERE status IN ('sent', 'viewed') AND reminder_settled_at IS NULL;
      -- The scheduler's claims: a subject of a task (a request to remind, …) is worked on by one
      -- instance until its lease runs out. Emptied by each release; nothing here outlives a run.
      CREATE TABLE scheduled_leases (
        organization_id text COLLATE "C" NOT NULL,
        task text COLLATE "C" NOT NULL,
        subject_id text COLLATE "C" NOT NULL,
        lease_token text NOT NULL,
        leased_until timestamptz NOT NULL,
        PRIMARY KEY (organization_id, task, subject_id)
      );
      CREATE INDEX scheduled_leases_by_expiry ON scheduled_leases (leased_until);
      -- D27: venues' questions and the planners' answers. answer is JSON ({ text, answeredAt,
      -- answeredBy, sharedWith }) or null while unanswered.
      CREATE TABLE venue_questions (
        organization_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        request_id text COLLATE "C" NOT NULL,
        venue_id text COLLATE "C" NOT NULL,
        text text NOT NULL,
        asked_at timestamptz NOT NULL,
        answer text,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX venue_questions_by_event ON venue_questions (organization_id, event_id, asked_at, id);
      CREATE INDEX venue_questions_unanswered ON venue_questions (organization_id, event_id) WHERE answer IS NULL;
    `,
  },
  {
    version: 15,
    name: '015_request_versions',
    sql: `
      -- D26: the request as sent. One row per version of an event's request: version 1 at the first
      -- send, then one per send of changes. sent_by is the actor (JSON), changes the list of changes
      -- from the version before (JSON), snapshot what venues read (JSON).
      CREATE TABLE request_versions (
        organization_id text COLLATE "C" NOT NULL,
        event_id text COLLATE "C" NOT NULL,
        version integer NOT NULL,
        sent_at timestamptz NOT NULL,
        sent_by text NOT NULL,
        message text,
        changes text NOT NULL,
        snapshot text NOT NULL,
        PRIMARY KEY (organization_id, event_id, version)
      );
      -- D26: the link tokens of later mails to a venue (a version's), stored hashed like the first.
      CREATE TABLE venue_request_links (
        token_hash text COLLATE "C" PRIMARY KEY,
        organization_id text COLLATE "C" NOT NULL,
        request_id text COLLATE "C" NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX venue_request_links_by_request ON venue_request_links (organization_id, request_id);
    `,
  },
];
