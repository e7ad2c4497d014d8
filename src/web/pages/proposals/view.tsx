/**
 * The Proposals tab's markup (D24): the proposals side by side in one table whose first column stays
 * in sight while it scrolls sideways, each figure against its budget line, marks said in words; each
 * proposal's rooms night by night; and the requests without a proposal, with their status and reason.
 */

import type { EventDetails } from '../../../domain/types.js';
import { EventTabs } from '../../event-tabs.js';
import { count, dateRanges, day } from '../../format.js';
import { href } from '../../href.js';
import { type Frame, Layout, StatusBadge } from '../../layout.js';
import {
  type Comparison,
  type ComparisonCell,
  type ComparisonColumn,
  type CoverageLine,
  coverageLines,
} from '../../proposal-table.js';

export interface ProposalsModel {
  details: Pick<EventDetails, 'id' | 'name' | 'status' | 'currency' | 'accommodations' | 'eventDates'>;
  comparison: Comparison;
}

function Cell(props: { cell: ComparisonCell }) {
  const { cell } = props;
  return (
    <td class={cell.warning ? 'warning' : undefined}>
      <span class="figure">{cell.text}</span>
      {cell.flags.map((flag) => (
        <span class={flag.startsWith('Within') ? 'flag within' : 'flag'}>{flag}</span>
      ))}
    </td>
  );
}

/** A venue's column heading: its name and city, and its marks in words. */
function VenueHeading(props: { column: ComparisonColumn }) {
  const { column } = props;
  return (
    <th scope="col" class="venue">
      <span class="venue-name">{column.venueName}</span>
      <span class="venue-city">{column.venueCity}</span>
      {column.marks.map((mark) => (
        <span class="mark">
          <span aria-hidden="true">★ </span>
          {mark}
        </span>
      ))}
    </th>
  );
}

/** What can be done with a proposal: award it, decline it, or why not. */
function Decide(props: { eventId: string; column: ComparisonColumn }) {
  const { column, eventId } = props;
  return (
    <td class="decide">
      {column.mayAward && (
        <a class="button primary" href={href.awardProposal(eventId, column.requestId)}>
          Award<span class="visually-hidden"> {column.venueName}</span>
        </a>
      )}{' '}
      {column.mayDecline && (
        <a class="button" href={href.declineProposal(eventId, column.requestId)}>
          Decline<span class="visually-hidden"> {column.venueName}</span>
        </a>
      )}
      {column.mayAskRevision && (
        <a class="button" href={href.requestRevision(eventId, column.requestId)}>
          Ask for a revision<span class="visually-hidden"> from {column.venueName}</span>
        </a>
      )}
      {column.status === 'proposed' && column.expired && (
        <p class="hint">Expired: ask the venue for a revision before awarding it.</p>
      )}
      {column.status !== 'proposed' && <p class="hint">{column.statusText}</p>}
    </td>
  );
}

function ComparisonTable(props: { model: ProposalsModel }) {
  const { comparison, details } = props.model;
  const { columns } = comparison;
  const span = columns.length + 2;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways, so the keyboard must reach it
    <section class="table-wrap comparison-wrap" aria-labelledby="comparison-caption" tabIndex={0}>
      <table class={`comparison columns-${Math.min(columns.length, 6)}`}>
        <caption id="comparison-caption" class="visually-hidden">
          {columns.length === 1 ? 'One proposal' : `${columns.length} proposals side by side`}, with the
          event’s budget in {details.currency}
        </caption>
        <thead>
          <tr>
            <th scope="col" class="figure-name">
              Figure
            </th>
            <th scope="col" class="number budget">
              Budget
            </th>
            {columns.map((column) => (
              <VenueHeading column={column} />
            ))}
          </tr>
        </thead>
        {comparison.groups.map((group) => (
          <tbody>
            <tr class="group">
              <th scope="rowgroup" colSpan={span} id={`group-${group.id}`}>
                {group.label}
              </th>
            </tr>
            {group.rows.map((row) => (
              <tr id={`row-${row.id}`}>
                <th scope="row" class="figure-name">
                  {row.label}
                </th>
                <td class="number budget">{row.budget?.text ?? ''}</td>
                {row.cells.map((cell) => (
                  <Cell cell={cell} />
                ))}
              </tr>
            ))}
          </tbody>
        ))}
        <tfoot class="decide-row">
          <tr>
            <th scope="row" class="figure-name">
              Decide
            </th>
            <td />
            {columns.map((column) => (
              <Decide eventId={details.id} column={column} />
            ))}
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

function CoverageTable(props: { column: ComparisonColumn; lines: CoverageLine[] }) {
  const { column, lines } = props;
  const id = `coverage-${column.requestId}`;
  const short = lines.reduce((sum, line) => sum + line.short, 0);
  return (
    <section class="coverage" aria-labelledby={id}>
      <h3 id={id}>{column.venueName}</h3>
      <p class="summary">
        {column.proposal.coverage.percent === null
          ? 'The event asks for no guest rooms.'
          : `${column.proposal.coverage.percent}% covered; ${short === 0 ? 'no room short' : `${count(short)} room nights short`}.`}
      </p>
      {lines.length > 0 && (
        <table class="coverage-grid">
          <caption class="visually-hidden">Rooms per night at {column.venueName}</caption>
          <thead>
            <tr>
              <th scope="col">Night and room type</th>
              <th scope="col" class="number">
                Requested
              </th>
              <th scope="col" class="number">
                Offered
              </th>
              <th scope="col" class="number">
                Short
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr class={line.short > 0 ? 'short' : undefined}>
                <th scope="row">
                  <span class="night">{day(line.night)}</span> {line.roomType}
                </th>
                <td class="number">{count(line.requested)}</td>
                <td class="number">{count(line.offered)}</td>
                <td class="number">{line.short > 0 ? `${count(line.short)} short` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Others(props: { comparison: Comparison }) {
  const { others } = props.comparison;
  if (others.length === 0) return null;
  return (
    <section aria-labelledby="others-title">
      <h2 id="others-title">Requests without a proposal</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone, so the keyboard must reach it */}
      <section class="table-wrap" tabIndex={0} aria-labelledby="others-title">
        <table class="others">
          <thead>
            <tr>
              <th scope="col">Venue</th>
              <th scope="col">Status</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {others.map((other) => (
              <tr>
                <th scope="row">
                  {other.venueName}
                  <span class="venue-city">{other.venueCity}</span>
                </th>
                <td>{other.statusText}</td>
                <td>{other.reason ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </section>
  );
}

/** One sentence of what stands out: who has the lowest total and the best coverage. */
function Highlights(props: { comparison: Comparison }) {
  const { columns, currencies } = props.comparison;
  const named = (mark: string) =>
    columns.filter((column) => column.marks.some((given) => given.startsWith(mark))).map((c) => c.venueName);
  const lowest = named('Lowest total');
  const best = named('Best coverage');
  return (
    <ul class="highlights">
      {currencies.length > 1 && (
        <li>
          The proposals are in {currencies.join(' and ')}: amounts are never added across currencies, and the
          lowest total is found within each currency. Only proposals in {props.comparison.eventCurrency} are
          compared with the budget.
        </li>
      )}
      {lowest.length > 0 && <li>Lowest total: {lowest.join(', ')}.</li>}
      {best.length > 0 && <li>Best coverage of the room block: {best.join(', ')}.</li>}
    </ul>
  );
}

export function ProposalsPage(props: { frame: Frame; model: ProposalsModel; notice?: string | undefined }) {
  const { details, comparison } = props.model;
  const { columns } = comparison;
  return (
    <Layout frame={props.frame} title={`Proposals: ${details.name}`} notice={props.notice}>
      <div class="proposals-page">
        <div class="page-head">
          <h1>Proposals: {details.name}</h1>
          <div class="actions">
            {columns.length > 0 && (
              <a class="button" href={href.proposalsCsv(details.id)} download>
                Download as CSV
              </a>
            )}
          </div>
        </div>
        <EventTabs eventId={details.id} current="proposals" proposals={columns.length} />
        <p>
          <StatusBadge status={details.status} /> {dateRanges(details.eventDates)}
        </p>
        {columns.length === 0 ? (
          <p class="empty">No proposal yet. Each venue’s proposal shows here as soon as it arrives.</p>
        ) : (
          <>
            <Highlights comparison={comparison} />
            <h2 id="comparison-title">Side by side</h2>
            <p class="hint">
              Each amount in the proposal’s own currency; the Budget column is the event’s, in{' '}
              {details.currency}.
            </p>
            <ComparisonTable model={props.model} />
            <section aria-labelledby="coverage-title">
              <h2 id="coverage-title">Guest rooms night by night</h2>
              <p class="hint">
                For each proposal: the rooms the event asks for, those offered, and what is short.
              </p>
              <div class="coverage-list">
                {columns.map((column) => (
                  <CoverageTable
                    column={column}
                    lines={coverageLines(details.accommodations, column.proposal)}
                  />
                ))}
              </div>
            </section>
          </>
        )}
        <Others comparison={comparison} />
      </div>
    </Layout>
  );
}
