/**
 * The room block as a table of nights × room types with its totals and a line naming the peak night:
 * the event page shows every type and marks the peak; the venue's page shows only the types asked for.
 */
import type { Accommodations, RoomType } from '../domain/types.js';
import { ROOM_TYPES } from '../domain/types.js';
import { count, day } from './format.js';
import { roomBlock } from './room-block.js';

export function RoomBlockTable(props: {
  accommodations: Accommodations;
  caption: string;
  captionId: string;
  /** What the page says when no night holds a row. */
  empty: string;
  /** Only the room types with at least one room; every type otherwise. */
  askedTypesOnly?: boolean;
  markPeak?: boolean;
}) {
  const block = roomBlock(props.accommodations);
  if (block.nights.length === 0) return <p class="empty">{props.empty}</p>;
  const types: readonly RoomType[] = props.askedTypesOnly
    ? ROOM_TYPES.filter((type) => block.totalsByType[type] > 0)
    : ROOM_TYPES;
  const isPeak = (night: string) => props.markPeak === true && block.peak?.night === night;
  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone, so the keyboard must reach it */}
      <section class="table-wrap" aria-labelledby={props.captionId} tabIndex={0}>
        <table class="rooms">
          <caption id={props.captionId}>{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">Night</th>
              {types.map((type) => (
                <th scope="col" class="number">
                  {type}
                </th>
              ))}
              <th scope="col" class="number">
                Total
              </th>
            </tr>
          </thead>
          <tbody>
            {block.nights.map((night) => (
              <tr class={isPeak(night.night) ? 'peak' : undefined}>
                <th scope="row">
                  {day(night.night)}
                  {isPeak(night.night) && <span class="tag"> peak</span>}
                </th>
                {types.map((type) => (
                  <td class="number">{night.counts[type] === undefined ? '' : count(night.counts[type])}</td>
                ))}
                <td class="number">{count(night.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {types.map((type) => (
                <td class="number">{count(block.totalsByType[type])}</td>
              ))}
              <td class="number">{count(block.roomNights)}</td>
            </tr>
          </tfoot>
        </table>
      </section>
      <p class="summary">
        {block.peak ? `Peak night: ${day(block.peak.night)}, ${count(block.peak.rooms)} rooms. ` : ''}
        Total room nights: {count(block.roomNights)}.
      </p>
    </>
  );
}
