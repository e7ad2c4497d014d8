/** Versioned schema for the embedded store. Every table carries the organization id (tenant-keyed). */
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
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        event_count INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE users (
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        id TEXT NOT NULL,
        email TEXT NOT NULL,
        name TEXT,
        active INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, email)
      );
      CREATE UNIQUE INDEX users_id ON users (id);
      CREATE TABLE groups (
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE UNIQUE INDEX groups_id ON groups (id);
      CREATE TABLE group_members (
        organization_id TEXT NOT NULL,
        group_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('member', 'approver')),
        PRIMARY KEY (organization_id, group_id, user_id)
      );
      CREATE INDEX group_members_user ON group_members (organization_id, user_id);
      CREATE TABLE api_keys (
        organization_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        last_used_at TEXT,
        PRIMARY KEY (organization_id, key_id)
      );
      CREATE UNIQUE INDEX api_keys_key_id ON api_keys (key_id);
      CREATE TABLE events (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        status TEXT NOT NULL,
        previous_status TEXT,
        document TEXT NOT NULL,
        summary TEXT NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX events_newest_first ON events (organization_id, created_at DESC, id DESC);
      CREATE UNIQUE INDEX events_id ON events (id);
      CREATE TABLE event_grants (
        organization_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
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
        organization_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        event_id TEXT NOT NULL,
        granted_to INTEGER NOT NULL,
        created_at TEXT NOT NULL,
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
        organization_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (organization_id, user_id)
      );
      CREATE TABLE user_invites (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT,
        PRIMARY KEY (organization_id, id)
      );
      CREATE UNIQUE INDEX user_invites_token_hash ON user_invites (token_hash);
      CREATE INDEX user_invites_user ON user_invites (organization_id, user_id);
      CREATE TABLE user_sessions (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        user_agent TEXT,
        client_address TEXT,
        PRIMARY KEY (organization_id, id)
      );
      CREATE UNIQUE INDEX user_sessions_token_hash ON user_sessions (token_hash);
      CREATE INDEX user_sessions_user ON user_sessions (organization_id, user_id);
      CREATE INDEX user_sessions_expires_at ON user_sessions (expires_at);
      -- Sign-in matches emails case-insensitively (ASCII letters, as lower() does on both backends).
      CREATE INDEX users_email_lower ON users (lower(email));
    `,
  },
  {
    version: 4,
    name: '004_change_log',
    sql: `
      -- The change log (D17): one record per committed change, numbered per organization in commit
      -- order (change_sequence counts them) and per event (revision). snapshot is the details after.
      ALTER TABLE organizations ADD COLUMN change_sequence INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE event_changes (
        organization_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        type TEXT NOT NULL,
        occurred_at TEXT NOT NULL,
        actor TEXT NOT NULL,
        changed_fields TEXT NOT NULL,
        diff TEXT NOT NULL,
        data TEXT,
        snapshot TEXT NOT NULL,
        PRIMARY KEY (organization_id, sequence),
        UNIQUE (organization_id, event_id, revision),
        UNIQUE (organization_id, id)
      );
      -- The dashboard lists the events granted to one person.
      CREATE INDEX event_grants_by_user ON event_grants (organization_id, user_id);
      -- Keys every instance shares without configuration (the dashboard's form tokens), made on first use.
      CREATE TABLE server_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at TEXT NOT NULL
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
      ALTER TABLE events ADD COLUMN etag TEXT;
      UPDATE events SET etag = '"' || substr(sha256_base64url(document), 1, 32) || '"';
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
      CREATE TABLE webhook_endpoints (
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        id TEXT NOT NULL,
        url TEXT NOT NULL,
        enabled_events TEXT NOT NULL,
        status TEXT NOT NULL,
        disabled_reason TEXT,
        secret TEXT NOT NULL,
        previous_secret TEXT,
        previous_secret_expires_at TEXT,
        cursor INTEGER NOT NULL,
        failing_since TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE TABLE webhook_deliveries (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        endpoint_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        type TEXT NOT NULL,
        sequence INTEGER,
        payload TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        locked_until TEXT,
        lease_token TEXT,
        last_attempt_at TEXT,
        last_status_code INTEGER,
        last_error TEXT,
        last_response_body TEXT,
        created_at TEXT NOT NULL,
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
      -- The gazetteer (GeoNames cities of 1,000 people or more). Not tenant data: shared by every
      -- organization. Filled on start from the npm package when the version in places_source differs.
      CREATE TABLE places (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        country_code TEXT NOT NULL,
        admin_code TEXT NOT NULL,
        population INTEGER NOT NULL,
        latitude REAL NOT NULL,
        longitude REAL NOT NULL,
        time_zone TEXT NOT NULL
      );
      CREATE INDEX places_by_name ON places (name_key, population DESC);
      CREATE INDEX places_by_country_name ON places (country_code, name_key, population DESC);
      CREATE TABLE places_source (
        name TEXT PRIMARY KEY,
        version TEXT NOT NULL,
        loaded_at TEXT NOT NULL
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
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        recipient TEXT NOT NULL,
        recipient_name TEXT,
        reply_to TEXT,
        reply_to_name TEXT,
        subject TEXT NOT NULL,
        text_body TEXT,
        html_body TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        locked_until TEXT,
        lease_token TEXT,
        last_attempt_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL,
        sent_at TEXT,
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
        organization_id TEXT NOT NULL REFERENCES organizations (id),
        id TEXT NOT NULL,
        name_key TEXT NOT NULL,
        city_key TEXT NOT NULL,
        archived_at TEXT,
        document TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX venues_by_name ON venues (organization_id, name_key, id) WHERE archived_at IS NULL;
      -- One request for proposals per venue and event. token_hash is the SHA-256 of the venue's link
      -- token, set when the request is sent; the token itself is never stored. turn_down and decision
      -- are JSON ({ reason, comment }).
      CREATE TABLE venue_requests (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        venue_id TEXT NOT NULL,
        status TEXT NOT NULL,
        response_due_date TEXT,
        sent_at TEXT,
        viewed_at TEXT,
        responded_at TEXT,
        turn_down TEXT,
        decision TEXT,
        token_hash TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, event_id, venue_id),
        FOREIGN KEY (organization_id, event_id) REFERENCES events (organization_id, id),
        FOREIGN KEY (organization_id, venue_id) REFERENCES venues (organization_id, id)
      );
      CREATE INDEX venue_requests_by_event ON venue_requests (organization_id, event_id, created_at);
      -- The venue's page finds its request by the token's hash alone; operator commands by id alone.
      CREATE INDEX venue_requests_by_token_hash ON venue_requests (token_hash);
      CREATE INDEX venue_requests_by_id ON venue_requests (id);
      -- Every revision of every proposal is kept (D23); the terms as JSON.
      CREATE TABLE proposals (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        submitted_at TEXT NOT NULL,
        submitted_by TEXT NOT NULL,
        terms TEXT NOT NULL,
        PRIMARY KEY (organization_id, id),
        UNIQUE (organization_id, request_id, revision),
        FOREIGN KEY (organization_id, request_id) REFERENCES venue_requests (organization_id, id)
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
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        token_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT,
        PRIMARY KEY (organization_id, id)
      );
      CREATE UNIQUE INDEX password_resets_token_hash ON password_resets (token_hash);
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
        organization_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        kind TEXT NOT NULL,
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
      ALTER TABLE venue_requests ADD COLUMN reminded_at TEXT;
      ALTER TABLE venue_requests ADD COLUMN reminder_settled_at TEXT;
      ALTER TABLE venue_requests ADD COLUMN due_date_told_at TEXT;
      UPDATE venue_requests SET due_date_told_at = sent_at WHERE sent_at IS NOT NULL;
      -- What a reminder round reads: requests still waiting for an answer, by reply date.
      CREATE INDEX venue_requests_awaiting_reminder ON venue_requests (response_due_date)
        WHERE status IN ('sent', 'viewed') AND reminder_settled_at IS NULL;
      -- The scheduler's claims: a subject of a task (a request to remind, …) is worked on by one
      -- instance until its lease runs out. Emptied by each release; nothing here outlives a run.
      CREATE TABLE scheduled_leases (
        organization_id TEXT NOT NULL,
        task TEXT NOT NULL,
        subject_id TEXT NOT NULL,
        lease_token TEXT NOT NULL,
        leased_until TEXT NOT NULL,
        PRIMARY KEY (organization_id, task, subject_id)
      );
      CREATE INDEX scheduled_leases_by_expiry ON scheduled_leases (leased_until);
      -- D27: venues' questions and the planners' answers. answer is JSON ({ text, answeredAt,
      -- answeredBy, sharedWith }) or null while unanswered.
      CREATE TABLE venue_questions (
        organization_id TEXT NOT NULL,
        id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        venue_id TEXT NOT NULL,
        text TEXT NOT NULL,
        asked_at TEXT NOT NULL,
        answer TEXT,
        PRIMARY KEY (organization_id, id),
        FOREIGN KEY (organization_id, request_id) REFERENCES venue_requests (organization_id, id)
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
        organization_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        sent_at TEXT NOT NULL,
        sent_by TEXT NOT NULL,
        message TEXT,
        changes TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        PRIMARY KEY (organization_id, event_id, version)
      );
      -- D26: the link tokens of later mails to a venue (a version's), stored hashed like the first.
      CREATE TABLE venue_request_links (
        token_hash TEXT PRIMARY KEY,
        organization_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX venue_request_links_by_request ON venue_request_links (organization_id, request_id);
    `,
  },
];
