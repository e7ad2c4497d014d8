import type { NotificationKind } from '../domain/notifications.js';

export type MemberRole = 'member' | 'approver';

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

export interface User {
  id: string;
  organizationId: string;
  email: string;
  name: string | null;
  active: boolean;
  createdAt: string;
}

export interface Group {
  id: string;
  organizationId: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  keyId: string;
  organizationId: string;
  userId: string;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** What authentication needs of a key, in one read. */
export interface KeyCredentials {
  keyId: string;
  organizationId: string;
  userId: string;
  secretHash: string;
  revoked: boolean;
  userActive: boolean;
}

export interface IdentityRepository {
  countOrganizations(): Promise<number>;
  insertOrganization(organization: Organization): Promise<void>;
  findOrganization(id: string): Promise<Organization | undefined>;
  insertUser(user: User): Promise<void>;
  findUser(id: string): Promise<User | undefined>;
  findUserByEmail(organizationId: string, email: string): Promise<User | undefined>;
  deactivateUser(id: string): Promise<void>;
  insertGroup(group: Group): Promise<void>;
  findGroup(id: string): Promise<Group | undefined>;
  /** Adds a member, or changes the role of one already there. */
  putMember(organizationId: string, groupId: string, userId: string, role: MemberRole): Promise<void>;
  /** Resolves to false when the user was not a member. */
  removeMember(groupId: string, userId: string): Promise<boolean>;
  /** How many groups the user belongs to (as member or approver). */
  countMemberships(organizationId: string, userId: string): Promise<number>;
  insertKey(key: ApiKeyRecord): Promise<void>;
  findKey(keyId: string): Promise<ApiKeyRecord | undefined>;
  findCredentials(keyId: string): Promise<KeyCredentials | undefined>;
  revokeKey(keyId: string, at: string): Promise<void>;
  /** Replaces a key in one transaction: the old one revoked, the new one stored. */
  replaceKey(oldKeyId: string, replacement: ApiKeyRecord): Promise<void>;
  touchKey(keyId: string, at: string): Promise<void>;
  listKeys(organizationId: string): Promise<ApiKeyRecord[]>;
  /** The kinds of notification (D24) the person switched off, in NOTIFICATION_KINDS' order; none by default. */
  switchedOffNotifications(organizationId: string, userId: string): Promise<NotificationKind[]>;
  /** Replaces the kinds the person switched off with `kinds`, in one transaction. */
  setSwitchedOffNotifications(
    organizationId: string,
    userId: string,
    kinds: readonly NotificationKind[],
  ): Promise<void>;
}
