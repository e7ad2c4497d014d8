/** The room grid's markup: the room block as an editable grid of nights × room types. */
import type { JSX } from 'preact';
import type { DateRange } from '../../../domain/types.js';
import { ROOM_TYPES } from '../../../domain/types.js';
import { count, dateRange, dateRanges, day } from '../../format.js';
import { type FormBody, type FormProblem, field, fieldId, fields, problemsByField } from '../../forms.js';
import { href } from '../../href.js';
import {
  CsrfField,
  ErrorAlert,
  ErrorSummary,
  ErrorText,
  type Frame,
  Layout,
  TextField,
} from '../../layout.js';
import { cellName } from '../../room-grid.js';
import { controlFor } from '../../typed-controls.js';
import { fieldLabel } from '../../words.js';

/** What "Copy night" just did to the grid (nothing is saved yet). */
export interface CopyReport {
  night: string;
  range: string[];
  nightsAdded: number;
  roomNightsAdded: number;
  /** How many nights of the range fall outside the event's dates. */
  outside: number;
  eventDates: DateRange[];
}

export interface RoomsModel {
  eventId: string;
  eventName: string;
  /** The version the grid was read at: a save made meanwhile by someone else is not overwritten. */
  version: string;
  /** Every night shown, in order: stored ones, meeting days without rooms yet, and nights being added. */
  nights: string[];
  /** The grid's cells, and the add and copy fields, as typed. */
  values: FormBody;
  problems: FormProblem[];
  stale?: boolean;
  /** After a copy: what it did, and the grid before it (what "Undo the copy" posts). */
  copied?: CopyReport;
  before?: FormBody;
  notice?: string;
}

const plural = (amount: number, one: string, many: string) =>
  `${count(Math.abs(amount))} ${Math.abs(amount) === 1 ? one : many}`;

/** What a copy did, how much it adds, whether it leaves the event's dates, and the way back. */
function CopyMessage(props: { report: CopyReport; before: FormBody; eventId: string; csrf: string }) {
  const { report } = props;
  const first = report.range[0]!;
  const last = report.range[report.range.length - 1]!;
  const roomNights =
    report.roomNightsAdded >= 0
      ? `${plural(report.roomNightsAdded, 'room night', 'room nights')} added`
      : `${plural(report.roomNightsAdded, 'room night', 'room nights')} fewer`;
  const outside = report.outside > 0;
  return (
    <div class={outside ? 'copy-report warning' : 'copy-report'} role={outside ? 'alert' : 'status'}>
      <h2>Copied, not saved yet</h2>
      <p>
        {day(report.night)} copied to {plural(report.range.length, 'night', 'nights')} (
        {dateRange({ startDate: first, endDate: last })}):{' '}
        {plural(report.nightsAdded, 'new night', 'new nights')} and {roomNights}.
      </p>
      {outside && (
        <p>
          <strong>
            {report.outside === report.range.length
              ? report.range.length === 1
                ? 'That night falls'
                : `All ${count(report.outside)} of these nights fall`
              : `${plural(report.outside, 'of these nights falls', 'of these nights fall')}`}{' '}
            outside the event's dates
          </strong>{' '}
          ({report.eventDates.length === 0 ? 'none yet' : dateRanges(report.eventDates)}).
        </p>
      )}
      <p>Press Save below the grid to keep the copy, or undo it to put the grid back as it was.</p>
      <form method="post" action={href.undoCopy(props.eventId)}>
        <CsrfField token={props.csrf} />
        {Object.entries(props.before).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value ?? '']).map((one) => (
            <input type="hidden" name={name} value={one} />
          )),
        )}
        <button type="submit">Undo the copy</button>
      </form>
    </div>
  );
}

export function RoomsPage(props: { frame: Frame; model: RoomsModel; script: string }) {
  const { model } = props;
  const errors = problemsByField(model.problems);
  const value = (name: string) => field(model.values, name);
  const removed = new Set(fields(model.values, 'removeNight'));
  return (
    <Layout
      frame={props.frame}
      title={`Rooms: ${model.eventName}`}
      scripts={[props.script]}
      notice={model.notice}
    >
      <h1>Rooms for {model.eventName}</h1>
      {model.stale && (
        <ErrorAlert>
          <h2>This event changed since you opened the grid</h2>
          <p>
            Someone else saved a change meanwhile, so nothing of yours was saved. Your entries are below; save
            again to apply them.
          </p>
        </ErrorAlert>
      )}
      {model.copied && model.before && (
        <CopyMessage
          report={model.copied}
          before={model.before}
          eventId={model.eventId}
          csrf={props.frame.csrf}
        />
      )}
      <ErrorSummary problems={model.problems} />
      {/* One form: "Add nights" and "Copy night" post the grid as typed, so no entry is lost. */}
      <form method="post" action={href.rooms(model.eventId)} novalidate class="room-form" id="room-form">
        <CsrfField token={props.frame.csrf} />
        <input type="hidden" name="version" value={model.version} />
        {model.nights.length === 0 ? (
          <p class="empty">No nights yet: add some below.</p>
        ) : (
          <div class="table-wrap">
            <table class="rooms editable" data-room-grid>
              <caption>Rooms per night and room type (blank: none)</caption>
              <thead>
                <tr>
                  <th scope="col" id="col-night">
                    Night
                  </th>
                  {ROOM_TYPES.map((type) => (
                    <th scope="col" class="number" id={`col-${type}`}>
                      {type}
                    </th>
                  ))}
                  <th scope="col" class="number">
                    Total
                  </th>
                  <th scope="col">Remove</th>
                </tr>
              </thead>
              <tbody>
                {model.nights.map((night) => (
                  <tr data-night={night} class={model.copied?.range.includes(night) ? 'copied' : undefined}>
                    <th scope="row" id={`row-${night}`}>
                      {day(night)}
                    </th>
                    {ROOM_TYPES.map((type) => {
                      const name = cellName(night, type);
                      const messages = errors.get(name);
                      const control = controlFor('number', value(name));
                      return (
                        <td class={messages ? 'invalid' : undefined}>
                          <input
                            {...({
                              id: fieldId(name),
                              name,
                              type: control.type,
                              pattern: control.pattern,
                              min: control.type === 'number' ? '0' : undefined,
                              step: control.type === 'number' ? '1' : undefined,
                              inputMode: 'numeric',
                              value: value(name),
                              'aria-labelledby': `row-${night} col-${type}`,
                              'aria-invalid': messages ? 'true' : undefined,
                              'aria-describedby': messages ? `${fieldId(name)}-error` : undefined,
                            } as JSX.IntrinsicElements['input'])}
                          />
                          {messages && (
                            <span class="field-error" id={`${fieldId(name)}-error`}>
                              {messages.join(' ')}
                            </span>
                          )}
                        </td>
                      );
                    })}
                    <td class="number" data-night-total>
                      {' '}
                    </td>
                    <td>
                      <input
                        type="checkbox"
                        name="removeNight"
                        value={night}
                        id={`remove-${night}`}
                        checked={removed.has(night)}
                        aria-label={`Remove the night of ${day(night)}`}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  {ROOM_TYPES.map((type) => (
                    <td class="number" data-type-total={type}>
                      {' '}
                    </td>
                  ))}
                  <td class="number" data-grand-total>
                    {' '}
                  </td>
                  <td />
                </tr>
              </tfoot>
            </table>
          </div>
        )}
        <p class="summary" data-room-summary aria-live="polite" />
        <div class="form-actions">
          <button type="submit" class="primary">
            Save
          </button>
          <a href={href.event(model.eventId)}>Cancel</a>
        </div>

        <section aria-labelledby="add-nights-title" data-subform>
          <h2 id="add-nights-title">Add nights</h2>
          <p class="hint">
            Shows empty rows for these nights in the grid above, keeping what you typed; nothing is saved
            until you press Save.
          </p>
          <div class="inline-fields">
            <TextField
              name="from"
              label={fieldLabel('from')}
              type="date"
              value={value('from')}
              errors={errors}
            />
            <TextField
              name="to"
              label={fieldLabel('to')}
              type="date"
              value={value('to')}
              errors={errors}
              hint="Blank: the first night alone."
            />
            <button type="submit" formAction={href.addNights(model.eventId)}>
              Add nights
            </button>
          </div>
        </section>

        {model.nights.length > 0 && (
          <section aria-labelledby="copy-title" data-subform>
            <h2 id="copy-title">Copy a night to a range of nights</h2>
            <p class="hint">
              Every night of the range gets the same rooms as the night copied, as typed in the grid. You see
              the grid with the copy and what it adds before anything is saved.
            </p>
            <div class="inline-fields">
              <div class={errors.has('copyNight') ? 'field invalid' : 'field'}>
                <label for={fieldId('copyNight')}>{fieldLabel('copyNight')}</label>
                <ErrorText id={fieldId('copyNight')} messages={errors.get('copyNight')} />
                <select id={fieldId('copyNight')} name="copyNight">
                  {model.nights.map((night) => (
                    <option value={night} selected={night === value('copyNight')}>
                      {day(night)}
                    </option>
                  ))}
                </select>
              </div>
              <TextField
                name="copyFrom"
                label={fieldLabel('copyFrom')}
                type="date"
                value={value('copyFrom')}
                errors={errors}
              />
              <TextField
                name="copyTo"
                label={fieldLabel('copyTo')}
                type="date"
                value={value('copyTo')}
                errors={errors}
                hint="Blank: the first night alone."
              />
              <button type="submit" formAction={href.copyNight(model.eventId)}>
                Copy night
              </button>
            </div>
          </section>
        )}
      </form>
    </Layout>
  );
}
