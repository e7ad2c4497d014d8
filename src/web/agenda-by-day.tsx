/** The agenda as the event page and the agenda page show it: day by day, each day's sessions in time order. */
import type { ComponentChildren } from 'preact';
import type { AgendaItem } from '../domain/types.js';
import { agendaByDay } from './event-days.js';
import { day } from './format.js';

/** Each session's line is the page's own (`session`): details on the event page, buttons on the agenda's. */
export function AgendaByDay(props: {
  agenda: readonly AgendaItem[];
  session: (session: AgendaItem) => ComponentChildren;
}) {
  const days = agendaByDay(props.agenda);
  if (days.length === 0) return <p class="empty">No sessions yet.</p>;
  return (
    <>
      {days.map(({ day: date, sessions }) => (
        <section class="agenda-day" aria-labelledby={`day-${date}`}>
          <h3 id={`day-${date}`}>{day(date)}</h3>
          <ul class="sessions">
            {sessions.map((session) => (
              <li>
                <span class="time">
                  {session.startTime}–{session.endTime}
                </span>{' '}
                {props.session(session)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
