/** Organizations, people and groups: operator use cases (D11, D12). */
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.js';
import type { MemberRole } from '../ports/identity-repository.js';
import { issueKey } from './api-keys.js';
import { type AppDeps, nowText } from './deps.js';
import { mailSettings } from './mail.js';
import { inviteUser, type TokenPage } from './people.js';
import { createVenue } from './venues.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

function requireText(field: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') {
    throw new ValidationError([{ field, code: 'required', message: 'must not be empty' }]);
  }
  return value.trim();
}

export async function createOrganization(deps: AppDeps, name: string) {
  const id = deps.ids.uuid();
  await deps.store.identity.insertOrganization({
    id,
    name: requireText('name', name),
    createdAt: nowText(deps),
  });
  return { id };
}

export async function createUser(
  deps: AppDeps,
  input: { organizationId: string; email: string; name?: string },
) {
  const organization = await deps.store.identity.findOrganization(input.organizationId);
  if (!organization) throw new NotFoundError(`No organization with id ${input.organizationId}.`);
  const email = requireText('email', input.email);
  if (!EMAIL_PATTERN.test(email)) {
    throw new ValidationError([
      { field: 'email', code: 'invalid_format', message: 'must be an email address' },
    ]);
  }
  if (await deps.store.identity.findUserByEmail(organization.id, email)) {
    throw new ConflictError(`A user with email ${email} already exists in this organization.`);
  }
  const id = deps.ids.uuid();
  await deps.store.identity.insertUser({
    id,
    organizationId: organization.id,
    email,
    name: input.name?.trim() || null,
    active: true,
    createdAt: nowText(deps),
  });
  return { id };
}

export async function deactivateUser(deps: AppDeps, userId: string) {
  const user = await deps.store.identity.findUser(userId);
  if (!user) throw new NotFoundError(`No user with id ${userId}.`);
  await deps.store.identity.deactivateUser(userId);
  // Sessions would be refused anyway (the user is inactive); ending them keeps none lying around.
  await deps.store.sessions.endAll(user.organizationId, userId);
  return { id: userId };
}

export async function createGroup(deps: AppDeps, input: { organizationId: string; name: string }) {
  const organization = await deps.store.identity.findOrganization(input.organizationId);
  if (!organization) throw new NotFoundError(`No organization with id ${input.organizationId}.`);
  const id = deps.ids.uuid();
  await deps.store.identity.insertGroup({
    id,
    organizationId: organization.id,
    name: requireText('name', input.name),
    createdAt: nowText(deps),
  });
  return { id };
}

async function findGroupAndUser(deps: AppDeps, groupId: string, userId: string) {
  const group = await deps.store.identity.findGroup(groupId);
  if (!group) throw new NotFoundError(`No group with id ${groupId}.`);
  const user = await deps.store.identity.findUser(userId);
  if (!user || user.organizationId !== group.organizationId) {
    throw new NotFoundError(`No user with id ${userId} in the group's organization.`);
  }
  return group;
}

export async function addGroupMember(
  deps: AppDeps,
  input: { groupId: string; userId: string; role: MemberRole },
) {
  const group = await findGroupAndUser(deps, input.groupId, input.userId);
  await deps.store.identity.putMember(group.organizationId, group.id, input.userId, input.role);
  return { groupId: group.id, userId: input.userId, role: input.role };
}

export async function removeGroupMember(deps: AppDeps, input: { groupId: string; userId: string }) {
  await findGroupAndUser(deps, input.groupId, input.userId);
  const removed = await deps.store.identity.removeMember(input.groupId, input.userId);
  if (!removed) throw new NotFoundError(`User ${input.userId} is not a member of group ${input.groupId}.`);
  return { groupId: input.groupId, userId: input.userId };
}

/** Where the demo's people choose their passwords: the dashboard's invitation page, under `baseUrl`. */
export interface DemoInvitations {
  /** Default: PUBLIC_BASE_URL's. */
  baseUrl?: string;
  invitePage: TokenPage;
}

/** The demo organization, its people, the planner's key and the venues of its directory. */
export interface Demo {
  organizationId: string;
  userId: string;
  groupId: string;
  approverId: string;
  keyId: string;
  key: string;
  venueIds: string[];
}

/** Each person's single-use link (24 h) where they choose a password. */
export interface DemoLinks {
  inviteUrl: string;
  inviteExpiresAt: string;
  approverInviteUrl: string;
}

/**
 * The demo organization's directory (D20): a few venues to shortlist, so a newcomer can send an event
 * out and answer as a venue from the link in `eventplan mail list`. Their addresses are on the reserved
 * `.example` domain: no mail to them can reach anyone.
 */
export const DEMO_VENUES = [
  {
    name: 'Harbourside Conference Hotel',
    email: 'events@harbourside.example',
    city: 'Lisbon',
    country: 'Portugal',
    contactName: 'Inês Duarte',
    website: 'https://harbourside.example',
    guestRooms: 180,
    largestMeetingRoomCapacity: 400,
  },
  {
    name: 'Alfama Palace Hotel',
    email: 'sales@alfama-palace.example',
    city: 'Lisbon',
    country: 'Portugal',
    contactName: 'Rui Matos',
    guestRooms: 95,
    largestMeetingRoomCapacity: 150,
  },
  {
    name: 'Casa do Rio Meeting Centre',
    email: 'rfp@casadorio.example',
    city: 'Porto',
    country: 'Portugal',
    guestRooms: 60,
    largestMeetingRoomCapacity: 220,
  },
] as const;

/**
 * An organization with a planner in a group that has an approver, a key for the planner, a few venues
 * in its directory, and with `invitations`, for each of the two people a single-use link (24 h) under `baseUrl` (default:
 * PUBLIC_BASE_URL's) where they choose a password.
 */
export async function createDemo(deps: AppDeps, invitations: DemoInvitations): Promise<Demo & DemoLinks>;
export async function createDemo(deps: AppDeps): Promise<Demo>;
export async function createDemo(
  deps: AppDeps,
  invitations?: DemoInvitations,
): Promise<Demo | (Demo & DemoLinks)> {
  const { id: organizationId } = await createOrganization(deps, 'Demo organization');
  const { id: userId } = await createUser(deps, {
    organizationId,
    email: 'planner@example.com',
    name: 'Planner',
  });
  const { id: approverId } = await createUser(deps, {
    organizationId,
    email: 'approver@example.com',
    name: 'Approver',
  });
  const { id: groupId } = await createGroup(deps, { organizationId, name: 'Planning' });
  await addGroupMember(deps, { groupId, userId, role: 'member' });
  await addGroupMember(deps, { groupId, userId: approverId, role: 'approver' });
  const { keyId, key } = await issueKey(deps, userId);
  const venueIds: string[] = [];
  for (const venue of DEMO_VENUES) venueIds.push((await createVenue(deps, { organizationId }, venue)).id);
  const demo: Demo = { organizationId, userId, groupId, approverId, keyId, key, venueIds };
  if (!invitations) return demo;
  const baseUrl = invitations.baseUrl ?? mailSettings(deps).publicBaseUrl;
  const plannerInvite = await inviteUser(deps, userId, baseUrl, invitations.invitePage);
  const approverInvite = await inviteUser(deps, approverId, baseUrl, invitations.invitePage);
  return {
    ...demo,
    inviteUrl: plannerInvite.url,
    inviteExpiresAt: plannerInvite.expiresAt,
    approverInviteUrl: approverInvite.url,
  };
}

/**
 * On an empty database, creates the demo organization once so a newcomer can call the API at once.
 * Instances starting together on one empty database take turns, so only the first creates it.
 */
export function bootstrapIfEmpty(deps: AppDeps, invitations: DemoInvitations) {
  return deps.store.exclusively(async () => {
    if ((await deps.store.identity.countOrganizations()) > 0) return undefined;
    return createDemo(deps, invitations);
  });
}
