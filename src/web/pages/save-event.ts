/** Saving a form of an event's pages: onto the version of the event the form was read at (D15). */
import { hasUnsentChanges, updateMyEvent } from '../../app/planning.js';
import { field } from '../forms.js';
import type { PageRequest } from '../page-module.js';

/** The page's event changed by `body`, unless it changed since its form was read (then nothing is). */
export function saveEvent(page: PageRequest<'/events/:id'>, body: Record<string, unknown>) {
  return updateMyEvent(page.deps, page.person, page.params.id, body, field(page.form, 'version'));
}

/** One agenda operation (add, update or remove a session) saved the same way. */
export const saveAgendaOperation = (page: PageRequest<'/events/:id'>, operation: Record<string, unknown>) =>
  saveEvent(page, { agendaOperations: [operation] });

/**
 * The notice after a save: plain "Saved", or, on an event sent to venues whose save left changes
 * venues have not been sent (D26), that they see it only once the changes are sent.
 */
export async function savedNotice(page: PageRequest<'/events/:id'>): Promise<'saved' | 'saved-unsent'> {
  return (await hasUnsentChanges(page.deps, page.person, page.params.id)) ? 'saved-unsent' : 'saved';
}
