/**
 * D28's reminders: a request still sent or viewed is mailed once, `RFP_REMINDER_DAYS` before its reply
 * date, at the first round on or after 09:00 UTC of that day (reply-dates.ts says when one is due).
 * The round's query finds the requests by reply date; the write judges each again (REMIND).
 */
import { reminderWindow } from '../../domain/reply-dates.js';
import { changeEvent, systemRequester } from '../change-event.js';
import type { ScheduledTask, TaskSettings } from '../scheduler.js';
import { REMIND } from '../sourcing-changes.js';

export const RFP_REMINDERS = 'rfp_reminders';

/** The reminders `settings.rfpReminderDays` days before each reply date; none when that is 0. */
export function rfpReminders(settings: TaskSettings): ScheduledTask | undefined {
  const days = settings.rfpReminderDays;
  if (days <= 0) return undefined;
  return {
    name: RFP_REMINDERS,
    due(deps, now, limit) {
      const nowText = now.toISOString();
      const { from, to } = reminderWindow(nowText, days);
      return deps.store.venueRequests.remindersDue({ task: RFP_REMINDERS, now: nowText, from, to, limit });
    },
    async run(deps, subject) {
      const changed = await changeEvent(
        deps,
        systemRequester(subject.organizationId),
        subject.eventId,
        REMIND,
        {
          requestId: subject.id,
          days,
        },
      );
      return changed.outcome ? 'done' : 'not_due';
    },
  };
}
