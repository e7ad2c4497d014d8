/** The tabs of an event: its details page and its Proposals tab (D24), the current one marked for screen readers too. */
import { href } from './href.js';

export type EventTab = 'details' | 'proposals';

export function EventTabs(props: { eventId: string; current: EventTab; proposals?: number }) {
  const tab = (name: EventTab, label: string, to: string) => (
    <a href={to} class="event-tab" aria-current={props.current === name ? 'page' : undefined}>
      {label}
    </a>
  );
  const count = props.proposals === undefined ? '' : ` (${props.proposals})`;
  return (
    <nav class="event-tabs" aria-label="Event">
      {tab('details', 'Details', href.event(props.eventId))}
      {tab('proposals', `Proposals${count}`, href.proposals(props.eventId))}
    </nav>
  );
}
