/**
 * People of the planning dashboard (D15): passwords, invites, sign-in with throttling, sessions, and
 * "Forgot password" (a mailed single-use link). The web pages call these; the operator commands
 * `user set-password`, `user invite` and `user sign-out` too.
 */
import { createHash } from 'node:crypto';
import {
  ConflictError,
  NotFoundError,
  PasswordResetThrottledError,
  SignInRefusedError,
  SignInThrottledError,
  ValidationError,
} from '../domain/errors.js';
import { invitationMail } from '../domain/invitation-mail.js';
import { passwordProblems } from '../domain/password-policy.js';
import { passwordResetMail } from '../domain/password-reset-mail.js';
import type { AttemptCounter } from '../ports/attempt-counter.js';
import type { Liveness } from '../ports/session-repository.js';
import type { Store } from '../ports/store.js';
import { hashSecret } from './api-keys.js';
import { commonPasswords } from './common-passwords.js';
import { type AppDeps, nowText } from './deps.js';
import { mailSettings, prepareMail, queueMails } from './mail.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password-hash.js';

/** Who a dashboard request acts for, established from its session cookie. */
export interface Person {
  organizationId: string;
  userId: string;
  sessionId: string;
  email: string;
  name: string | null;
}

export interface SessionPolicy {
  /** A session unused for this long has ended (SESSION_IDLE_MINUTES). */
  idleMinutes: number;
  /** A session ends this long after sign-in, however active (SESSION_MAX_DAYS). */
  maxDays: number;
}

export interface PeopleDeps extends AppDeps {
  attempts: AttemptCounter;
  sessionPolicy: SessionPolicy;
}

/** D15's throttling: failures counted per email and per client address in 15-minute windows. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const FAILURES_PER_EMAIL = 5;
export const FAILURES_PER_ADDRESS = 50;
export const INVITE_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A "Forgot password" link works once, within an hour of being asked for. */
export const PASSWORD_RESET_LIFETIME_MS = 60 * 60 * 1000;
/** Requests for a "Forgot password" link, throttled like sign-in: per email and per client address. */
export const RESET_REQUESTS_PER_EMAIL = 5;
export const RESET_REQUESTS_PER_ADDRESS = 50;
/** 43 base62 characters: about 256 random bits, for session and invite tokens alike. */
const TOKEN_LENGTH = 43;
const TOKEN_PATTERN = /^[0-9A-Za-z]{43}$/;
/** lastSeenAt is written at most this often per session, so a page view is not a disk write. */
const TOUCH_INTERVAL_MS = 60_000;
/** Ended sessions are deleted at most this often per store, after a sign-in. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** A user agent is kept for the Sessions page only; this much of it is plenty. */
const USER_AGENT_MAX = 400;

const lastPurge = new WeakMap<Store, number>();

/**
 * Throttle keys: the email lower-cased and hashed (no address is kept in the counter store in
 * clear), and the client address.
 */
const emailKey = (email: string, purpose = 'sign-in') =>
  `${purpose}:email:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
const addressKey = (clientAddress: string, purpose = 'sign-in') => `${purpose}:address:${clientAddress}`;

/**
 * The dashboard's page for a single-use token, as a path: the dashboard builds its own addresses
 * (web/href.ts) and hands the use cases the builder, so none of them writes a path of its own.
 */
export type TokenPage = (token: string) => string;

async function checkPassword(password: string) {
  const problems = passwordProblems(password, await commonPasswords());
  if (problems.length > 0) throw new ValidationError(problems);
}

/** The person whose email and password these are, or undefined; always at least one hash is checked. */
async function findSignInMatch(deps: AppDeps, email: string, password: string) {
  const candidates = (await deps.store.credentials.findSignInCandidates(email)).filter(
    (candidate) => candidate.passwordHash !== null,
  );
  if (candidates.length === 0) {
    await verifyPassword(password, await dummyPasswordHash());
    return undefined;
  }
  // The same email may have a password in several organizations: every one is checked, in order, so
  // the time taken does not depend on which one matches; the first active match signs in.
  let match: (typeof candidates)[number] | undefined;
  for (const candidate of candidates) {
    const matches = await verifyPassword(password, candidate.passwordHash!);
    if (matches && candidate.active && !match) match = candidate;
  }
  return match;
}

export async function signIn(
  deps: PeopleDeps,
  input: { email: string; password: string; clientAddress: string; userAgent: string | null },
): Promise<{ token: string; person: Person }> {
  const email = input.email.trim();
  const keys = [emailKey(email), addressKey(input.clientAddress)];
  // Counted before the check, so concurrent guesses cannot all pass while the first is being hashed;
  // an attempt that turns out not to be a failure is taken back.
  const [byEmail, byAddress] = await Promise.all(
    keys.map((key) => deps.attempts.increment(key, SIGN_IN_WINDOW_MS)),
  );
  const takeBack = () => Promise.all(keys.map((key) => deps.attempts.decrement(key)));
  const waits = [
    byEmail!.count > FAILURES_PER_EMAIL ? byEmail!.resetMs : 0,
    byAddress!.count > FAILURES_PER_ADDRESS ? byAddress!.resetMs : 0,
  ];
  if (Math.max(...waits) > 0) {
    await takeBack();
    throw new SignInThrottledError(Math.max(1, Math.ceil(Math.max(...waits) / 1000)));
  }
  let match: Awaited<ReturnType<typeof findSignInMatch>>;
  try {
    match = await findSignInMatch(deps, email, input.password);
  } catch (error) {
    // A store failure is not a wrong password.
    await takeBack();
    throw error;
  }
  if (!match) throw new SignInRefusedError();
  await takeBack();
  return startSession(deps, match, input);
}

/** Where a sign-in comes from, kept with its session for the "Signed-in devices" page. */
interface SignInOrigin {
  clientAddress: string;
  userAgent: string | null;
}

/** A new session (a new id and token at every sign-in) for a person whose credentials were just proven. */
async function startSession(
  deps: PeopleDeps,
  who: { organizationId: string; userId: string; email: string; name: string | null },
  origin: SignInOrigin,
): Promise<{ token: string; person: Person }> {
  const now = deps.clock.now();
  const token = deps.ids.token(TOKEN_LENGTH);
  const session = {
    id: deps.ids.uuid(),
    tokenHash: hashSecret(token),
    organizationId: who.organizationId,
    userId: who.userId,
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + deps.sessionPolicy.maxDays * 86_400_000).toISOString(),
    userAgent: origin.userAgent === null ? null : origin.userAgent.slice(0, USER_AGENT_MAX),
    clientAddress: origin.clientAddress,
  };
  await deps.store.sessions.insert(session);
  purgeEndedSessions(deps, now.getTime());
  return {
    token,
    person: {
      organizationId: who.organizationId,
      userId: who.userId,
      sessionId: session.id,
      email: who.email,
      name: who.name,
    },
  };
}

function liveness(deps: PeopleDeps, now: number): Liveness {
  return {
    now: new Date(now).toISOString(),
    idleSince: new Date(now - deps.sessionPolicy.idleMinutes * 60_000).toISOString(),
  };
}

/** Housekeeping off the request path: ended sessions are never served anyway; a failed purge waits for the next. */
function purgeEndedSessions(deps: PeopleDeps, now: number): void {
  const last = lastPurge.get(deps.store) ?? 0;
  if (now - last < PURGE_INTERVAL_MS) return;
  lastPurge.set(deps.store, now);
  deps.store.sessions.purgeExpired(liveness(deps, now)).catch(() => lastPurge.set(deps.store, last));
}

/** Checked on every request: signing out, `user sign-out` and deactivation take effect on the next one. */
export async function authenticateSession(
  deps: PeopleDeps,
  token: string | undefined,
): Promise<Person | undefined> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined;
  const session = await deps.store.sessions.findByTokenHash(hashSecret(token));
  if (!session || !session.userActive) return undefined;
  const now = deps.clock.now().getTime();
  const lastSeen = Date.parse(session.lastSeenAt);
  if (Date.parse(session.expiresAt) <= now) return undefined;
  if (lastSeen + deps.sessionPolicy.idleMinutes * 60_000 <= now) return undefined;
  if (now - lastSeen >= TOUCH_INTERVAL_MS) {
    // Best effort: a failed lastSeenAt write must not fail the request it describes.
    await deps.store.sessions
      .touch(session.organizationId, session.id, new Date(now).toISOString())
      .catch(() => undefined);
  }
  return {
    organizationId: session.organizationId,
    userId: session.userId,
    sessionId: session.id,
    email: session.email,
    name: session.name,
  };
}

export async function signOut(deps: PeopleDeps, person: Person): Promise<void> {
  await deps.store.sessions.end(person.organizationId, person.userId, person.sessionId);
}

export async function listOwnSessions(
  deps: PeopleDeps,
  person: Person,
): Promise<
  Array<{
    id: string;
    createdAt: string;
    lastSeenAt: string;
    expiresAt: string;
    userAgent: string | null;
    clientAddress: string | null;
    current: boolean;
  }>
> {
  const sessions = await deps.store.sessions.listLive(
    person.organizationId,
    person.userId,
    liveness(deps, deps.clock.now().getTime()),
  );
  return sessions.map(({ id, createdAt, lastSeenAt, expiresAt, userAgent, clientAddress }) => ({
    id,
    createdAt,
    lastSeenAt,
    expiresAt,
    userAgent,
    clientAddress,
    current: id === person.sessionId,
  }));
}

export async function endOwnSession(deps: PeopleDeps, person: Person, sessionId: string): Promise<void> {
  const live = await listOwnSessions(deps, person);
  if (!live.some((session) => session.id === sessionId)) {
    throw new NotFoundError('No such session among yours.');
  }
  await deps.store.sessions.end(person.organizationId, person.userId, sessionId);
}

/** An invite or a password for a deactivated person could never be used: refuse it rather than hand it out. */
async function findActiveUser(deps: AppDeps, userId: string) {
  const user = await deps.store.identity.findUser(userId);
  if (!user) throw new NotFoundError(`No user with id ${userId}.`);
  if (!user.active) throw new ConflictError(`User ${userId} is deactivated; they cannot sign in.`);
  return user;
}

function parseBaseUrl(baseUrl: string): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    throw new ValidationError([
      { field: 'baseUrl', code: 'invalid_format', message: 'must be an http:// or https:// URL' },
    ]);
  }
  return url.href.replace(/\/+$/, '');
}

/** A new invite of an active person and its link (under `baseUrl`, at `invitePage`); not stored yet. */
async function newInvite(deps: AppDeps, userId: string, baseUrl: string, invitePage: TokenPage) {
  const base = parseBaseUrl(baseUrl);
  const user = await findActiveUser(deps, userId);
  const token = deps.ids.token(TOKEN_LENGTH);
  const now = deps.clock.now();
  const invite = {
    organizationId: user.organizationId,
    id: deps.ids.uuid(),
    userId: user.id,
    tokenHash: hashSecret(token),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS).toISOString(),
    usedAt: null,
  };
  return { user, invite, url: `${base}${invitePage(token)}` };
}

/** A single-use link (24 h) where the person chooses a password; it voids the person's earlier invites. */
export async function inviteUser(
  deps: AppDeps,
  userId: string,
  baseUrl: string,
  invitePage: TokenPage,
): Promise<{ id: string; url: string; expiresAt: string }> {
  const { invite, url } = await newInvite(deps, userId, baseUrl, invitePage);
  await deps.store.credentials.insertInvite(invite);
  return { id: invite.id, url, expiresAt: invite.expiresAt };
}

/**
 * Like inviteUser, but the link goes to the person by mail, through the outbox (`user invite --send`),
 * and is never handed to the caller. The mail is made before anything is stored (an address that
 * cannot receive mail is refused with nothing written) and queued once the invite is stored; should
 * queueing fail, the unsent invite is voided by the next one.
 */
export async function mailInvite(
  deps: AppDeps,
  userId: string,
  baseUrl: string,
  invitePage: TokenPage,
): Promise<{ id: string; mailId: string; to: string; expiresAt: string }> {
  const { user, invite, url } = await newInvite(deps, userId, baseUrl, invitePage);
  const organization = await deps.store.identity.findOrganization(user.organizationId);
  const mail = prepareMail(
    deps,
    user.organizationId,
    invitationMail({
      organizationName: organization?.name ?? 'Your organization',
      person: { email: user.email, name: user.name },
      url,
      expiresAt: invite.expiresAt,
    }),
  );
  await deps.store.credentials.insertInvite(invite);
  await queueMails(deps, [mail]);
  return { id: invite.id, mailId: mail.id, to: mail.to.address, expiresAt: invite.expiresAt };
}

async function findUsableInvite(deps: AppDeps, token: string) {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const invite = await deps.store.credentials.findInvite(hashSecret(token));
  if (!invite || invite.usedAt !== null || !invite.userActive) return undefined;
  if (Date.parse(invite.expiresAt) <= deps.clock.now().getTime()) return undefined;
  return invite;
}

/** Whom an invite is for, while it can still be used. */
export async function findInvite(
  deps: AppDeps,
  token: string,
): Promise<{ email: string; name: string | null } | undefined> {
  const invite = await findUsableInvite(deps, token);
  return invite ? { email: invite.email, name: invite.name } : undefined;
}

const INVITE_NOT_USABLE = 'This invite link is unknown, used, replaced by a newer one, or expired.';

/** Sets the password an invite's person chose, and uses the invite up, in one transaction. */
export async function acceptInvite(deps: AppDeps, token: string, password: string): Promise<{ id: string }> {
  if (!(await findUsableInvite(deps, token))) throw new NotFoundError(INVITE_NOT_USABLE);
  await checkPassword(password);
  const passwordHash = await hashPassword(password);
  const redeemed = await deps.store.credentials.redeemInvite(hashSecret(token), passwordHash, nowText(deps));
  // Another request used the invite while the password was being hashed.
  if (!redeemed) throw new NotFoundError(INVITE_NOT_USABLE);
  // A new password ends the sessions signed in with the old one.
  await deps.store.sessions.endAll(redeemed.organizationId, redeemed.userId);
  return { id: redeemed.userId };
}

/** An operator sets a person's password (`user set-password`); their sessions end. */
export async function setPassword(deps: AppDeps, userId: string, password: string): Promise<{ id: string }> {
  const user = await findActiveUser(deps, userId);
  await checkPassword(password);
  await deps.store.credentials.setPassword(
    user.organizationId,
    user.id,
    await hashPassword(password),
    nowText(deps),
  );
  await deps.store.sessions.endAll(user.organizationId, user.id);
  return { id: user.id };
}

/** Ends every session of a person (`user sign-out`); they take effect at the person's next request. */
export async function signOutUser(
  deps: AppDeps,
  userId: string,
): Promise<{ id: string; sessionsEnded: number }> {
  const user = await deps.store.identity.findUser(userId);
  if (!user) throw new NotFoundError(`No user with id ${userId}.`);
  const sessionsEnded = await deps.store.sessions.endAll(user.organizationId, user.id);
  return { id: user.id, sessionsEnded };
}

/**
 * "Forgot password" (OWASP ASVS 5, chapter 6): a single-use link (at least 128 random bits, stored only
 * hashed, one hour) mailed through the outbox to every active person with that email, one mail per
 * organization. Throttled like sign-in, per email and per client address, whether or not the email
 * exists; the answer never says whether it does. The lookup and the mail are left to `delivery`, which
 * the caller does not wait for, so an unknown email is answered as fast as a known one.
 */
export async function requestPasswordReset(
  deps: PeopleDeps,
  input: { email: string; clientAddress: string; resetPage: TokenPage },
): Promise<{ delivery: Promise<number> }> {
  const email = input.email.trim();
  const tallies = await Promise.all([
    deps.attempts.increment(emailKey(email, 'password-reset'), SIGN_IN_WINDOW_MS),
    deps.attempts.increment(addressKey(input.clientAddress, 'password-reset'), SIGN_IN_WINDOW_MS),
  ]);
  const waits = [
    tallies[0]!.count > RESET_REQUESTS_PER_EMAIL ? tallies[0]!.resetMs : 0,
    tallies[1]!.count > RESET_REQUESTS_PER_ADDRESS ? tallies[1]!.resetMs : 0,
  ];
  if (Math.max(...waits) > 0) {
    throw new PasswordResetThrottledError(Math.max(1, Math.ceil(Math.max(...waits) / 1000)));
  }
  return { delivery: mailPasswordResets(deps, email, input.resetPage) };
}

/** Stores a reset link for each active person with the email and queues its mail; resolves to how many. */
async function mailPasswordResets(deps: AppDeps, email: string, resetPage: TokenPage): Promise<number> {
  if (email === '') return 0;
  const people = (await deps.store.credentials.findSignInCandidates(email)).filter((person) => person.active);
  const base = mailSettings(deps).publicBaseUrl.replace(/\/+$/, '');
  for (const person of people) {
    const token = deps.ids.token(TOKEN_LENGTH);
    const now = deps.clock.now();
    const reset = {
      organizationId: person.organizationId,
      id: deps.ids.uuid(),
      userId: person.userId,
      tokenHash: hashSecret(token),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_LIFETIME_MS).toISOString(),
      usedAt: null,
    };
    const organization = await deps.store.identity.findOrganization(person.organizationId);
    const mail = prepareMail(
      deps,
      person.organizationId,
      passwordResetMail({
        organizationName: organization?.name ?? 'Your organization',
        person: { email: person.email, name: person.name },
        url: `${base}${resetPage(token)}`,
        expiresAt: reset.expiresAt,
      }),
    );
    await deps.store.credentials.insertPasswordReset(reset);
    await queueMails(deps, [mail]);
  }
  return people.length;
}

async function findUsableReset(deps: AppDeps, token: string) {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const reset = await deps.store.credentials.findPasswordReset(hashSecret(token));
  if (!reset || reset.usedAt !== null || !reset.userActive) return undefined;
  if (Date.parse(reset.expiresAt) <= deps.clock.now().getTime()) return undefined;
  return reset;
}

/** Whom a password reset link is for, while it can still be used. */
export async function findPasswordReset(
  deps: AppDeps,
  token: string,
): Promise<{ email: string; name: string | null } | undefined> {
  const reset = await findUsableReset(deps, token);
  return reset ? { email: reset.email, name: reset.name } : undefined;
}

const RESET_NOT_USABLE = 'This password link is unknown, used, replaced by a newer one, or expired.';

/**
 * Sets the new password a reset link's person chose (D15's policy), uses the link up, ends every
 * session of the person (whoever knew the old password is out), and signs this browser in: the person
 * just proved they read their mail, so a throttle on their sign-ins does not keep them out.
 */
export async function resetPassword(
  deps: PeopleDeps,
  token: string,
  password: string,
  origin: SignInOrigin,
): Promise<{ token: string; person: Person }> {
  const reset = await findUsableReset(deps, token);
  if (!reset) throw new NotFoundError(RESET_NOT_USABLE);
  await checkPassword(password);
  const passwordHash = await hashPassword(password);
  const redeemed = await deps.store.credentials.redeemPasswordReset(
    hashSecret(token),
    passwordHash,
    nowText(deps),
  );
  if (!redeemed) throw new NotFoundError(RESET_NOT_USABLE);
  await deps.store.sessions.endAll(redeemed.organizationId, redeemed.userId);
  return startSession(deps, { ...redeemed, email: reset.email, name: reset.name }, origin);
}
