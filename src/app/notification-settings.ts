/**
 * A person's notification switches (D24), as their account page reads and saves them: one switch per
 * kind, every kind on until switched off. Only the signed-in person's own switches, ever.
 */
import { ValidationError } from '../domain/errors.js';
import { isNotificationKind, NOTIFICATION_KINDS, type NotificationKind } from '../domain/notifications.js';
import type { AppDeps } from './deps.js';

/** Whom the switches belong to: the signed-in person. */
export interface SwitchOwner {
  organizationId: string;
  userId: string;
}

/** Each kind with whether the person receives it, in NOTIFICATION_KINDS' order. */
export async function notificationSwitches(
  deps: AppDeps,
  owner: SwitchOwner,
): Promise<Array<{ kind: NotificationKind; on: boolean }>> {
  const off = await deps.store.identity.switchedOffNotifications(owner.organizationId, owner.userId);
  return NOTIFICATION_KINDS.map((kind) => ({ kind, on: !off.includes(kind) }));
}

/**
 * Saves the person's switches: the kinds in `on` are received, every other kind is switched off. A
 * kind that does not exist is refused (a forged form), with nothing saved.
 */
export async function saveNotificationSwitches(
  deps: AppDeps,
  owner: SwitchOwner,
  on: readonly string[],
): Promise<void> {
  const unknown = on.filter((kind) => !isNotificationKind(kind));
  if (unknown.length > 0) {
    throw new ValidationError([
      { field: 'notifications', code: 'invalid_value', message: 'names a kind of mail that does not exist' },
    ]);
  }
  const off = NOTIFICATION_KINDS.filter((kind) => !on.includes(kind));
  await deps.store.identity.setSwitchedOffNotifications(owner.organizationId, owner.userId, off);
}
