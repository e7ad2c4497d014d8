/**
 * What the event's edit pages (details, rooms, agenda, a session) show instead of their form while the
 * event is cancelled: that it is, who cancelled it and why, and how to reopen it. After a save that
 * found the event cancelled meanwhile, it says first that nothing was saved.
 */
import type { ComponentChildren } from 'preact';
import type { EventView } from '../app/planning.js';
import { actorUserId, statusChangeData } from '../domain/changes.js';
import { personName } from './format.js';
import { href } from './href.js';
import { ErrorAlert, type Frame, Layout } from './layout.js';
import type { PageRequest } from './page-module.js';
import { statusLabel } from './words.js';

/** The move that cancelled the event: who made it, the reason, and the status reopening returns to. */
function cancellationOf(view: EventView) {
  const change = view.history.find((record) => statusChangeData(record)?.to === 'cancelled');
  const move = change && statusChangeData(change);
  if (!change || !move) return undefined;
  const userId = actorUserId(change.actor);
  const who = userId === undefined ? 'An operator' : personName(view.people[userId]);
  return { who, reason: move.reason, before: move.from };
}

/** The same box, not an alert, on an ordinary visit: focus stays where a page starts. */
const NoticeBox = (props: { children: ComponentChildren }) => (
  <div class="error-summary">{props.children}</div>
);

export function CancelledPage(props: {
  frame: Frame;
  view: EventView;
  /** The page's own heading ("Rooms for …"), so the person knows where they are. */
  heading: string;
  /** A save was refused because the event was cancelled meanwhile. */
  refused: boolean;
}) {
  const { view } = props;
  const id = view.details.id;
  const cancelled = cancellationOf(view);
  // After a refused save, focus starts on why nothing was saved, as after any refused form.
  const Box = props.refused ? ErrorAlert : NoticeBox;
  return (
    <Layout frame={props.frame} title={props.heading}>
      <h1>{props.heading}</h1>
      <Box>
        <h2>{props.refused ? 'Nothing was saved: this event is cancelled' : 'This event is cancelled'}</h2>
        {props.refused && (
          <p>It was cancelled while you had this page open, so your changes were not made.</p>
        )}
        {cancelled && (
          <p>
            {cancelled.who} cancelled it{cancelled.reason ? `: “${cancelled.reason}”` : '.'}
          </p>
        )}
        <p>
          A cancelled event cannot be changed. Reopen it to change it again
          {cancelled?.before ? `; it goes back to ${statusLabel(cancelled.before)}` : ''}.
        </p>
        <div class="form-actions">
          {view.moves.includes('reopen') ? (
            <form method="get" action={href.move(id, 'reopen')} class="inline">
              <button type="submit" class="primary">
                Reopen
              </button>
            </form>
          ) : (
            <p>Only an operator can reopen it.</p>
          )}
          <a href={href.event(id)}>Back to the event</a>
        </div>
      </Box>
    </Layout>
  );
}

/** The cancelled page in place of an edit page: 200 when opened, 409 when a form posted to it found the event cancelled. */
export function renderCancelled(page: PageRequest, view: EventView, heading: string) {
  const refused = page.request.method === 'POST';
  return page.render(CancelledPage({ frame: page.frame(), view, heading, refused }), refused ? 409 : 200);
}
