/** Signed-in sessions of the dashboard (D15), kept in the store so that any instance serves them. */

export interface SessionRecord {
  /** Public and random: names the session in lists and when ending it. Never the cookie's token. */
  id: string;
  /** SHA-256 (hex) of the cookie's token. */
  tokenHash: string;
  organizationId: string;
  userId: string;
  createdAt: string;
  lastSeenAt: string;
  /** The absolute end of the session, whatever its activity. */
  expiresAt: string;
  userAgent: string | null;
  clientAddress: string | null;
}

/** A session with what each request needs of its person, in one read. */
export interface SessionWithUser extends SessionRecord {
  userActive: boolean;
  email: string;
  name: string | null;
}

/** A session is live while `expiresAt` is after `now` and `lastSeenAt` after `idleSince`. */
export interface Liveness {
  now: string;
  idleSince: string;
}

export interface SessionRepository {
  insert(session: SessionRecord): Promise<void>;
  findByTokenHash(tokenHash: string): Promise<SessionWithUser | undefined>;
  touch(organizationId: string, id: string, at: string): Promise<void>;
  /** The person's live sessions, most recently created first. */
  listLive(organizationId: string, userId: string, liveness: Liveness): Promise<SessionRecord[]>;
  /** Ends one session of the person; resolves to false when they have none of that id. */
  end(organizationId: string, userId: string, id: string): Promise<boolean>;
  /** Ends every session of the person; resolves to how many there were. */
  endAll(organizationId: string, userId: string): Promise<number>;
  /** Deletes every session that is no longer live; resolves to how many there were. */
  purgeExpired(liveness: Liveness): Promise<number>;
}
