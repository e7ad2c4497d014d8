/** Passwords and invites of the organization's people (D15). Only hashes are stored. */

/** A person whose email matches a sign-in, with what is needed to check their password. */
export interface SignInCandidate {
  organizationId: string;
  userId: string;
  email: string;
  name: string | null;
  active: boolean;
  /** Null when the person has no password yet. */
  passwordHash: string | null;
}

/** A single-use link where a person chooses a password; the link's token is kept only as a SHA-256 hash. */
export interface InviteRecord {
  organizationId: string;
  id: string;
  userId: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** An invite with the person it is for. */
export interface InviteWithUser extends InviteRecord {
  email: string;
  name: string | null;
  userActive: boolean;
}

/**
 * A single-use link where a person who forgot their password chooses a new one (short-lived; its token
 * kept only as a SHA-256 hash). Stored apart from invites, so that asking for one never voids an
 * invitation an operator handed out.
 */
export type PasswordResetRecord = InviteRecord;

/** A password reset with the person it is for. */
export type PasswordResetWithUser = InviteWithUser;

/** A person's stored password hash (copy-data moves these as they are). */
export interface PasswordRecord {
  organizationId: string;
  userId: string;
  passwordHash: string;
  updatedAt: string;
}

export interface CredentialRepository {
  /** Stores the person's password hash, replacing any earlier one. */
  setPassword(organizationId: string, userId: string, passwordHash: string, at: string): Promise<void>;
  findPasswordHash(organizationId: string, userId: string): Promise<string | undefined>;
  /**
   * Everyone whose email matches, ASCII letters compared case-insensitively, in every organization
   * (emails are unique per organization only, D11); ordered by organization id, then user id.
   */
  findSignInCandidates(email: string): Promise<SignInCandidate[]>;
  /** Stores an invite and, in the same transaction, removes the person's earlier ones (a new invite voids them). */
  insertInvite(invite: InviteRecord): Promise<void>;
  findInvite(tokenHash: string): Promise<InviteWithUser | undefined>;
  /**
   * In one transaction: marks the invite used, if it is unused, not expired at `at` and its person is
   * active, and sets the person's password. Of several concurrent redemptions, exactly one succeeds;
   * the others resolve to undefined, as does an unusable invite.
   */
  redeemInvite(
    tokenHash: string,
    passwordHash: string,
    at: string,
  ): Promise<{ organizationId: string; userId: string } | undefined>;
  /** Stores a password reset and, in the same transaction, removes the person's earlier ones. */
  insertPasswordReset(reset: PasswordResetRecord): Promise<void>;
  findPasswordReset(tokenHash: string): Promise<PasswordResetWithUser | undefined>;
  /** Like redeemInvite, for a password reset: single use, unexpired at `at`, an active person. */
  redeemPasswordReset(
    tokenHash: string,
    passwordHash: string,
    at: string,
  ): Promise<{ organizationId: string; userId: string } | undefined>;
}
