/** The room grid's markup: the room block as an editable grid of nights × room types. */
import { ROOM_TYPES } from '../../../domain/types.js';
import { day } from '../../format.js';
import { type FormBody, type FormProblem, field, fieldId, problemsByField } from '../../forms.js';
import { href } from '../../href.js';
import { CsrfField, ErrorAlert, ErrorSummary, ErrorText, type Frame, Layout } from '../../layout.js';

export interface RoomsModel {
  eventId: string;
  eventName: string;
  version: string;
  /** Every night shown, in order: stored ones, meeting days without rooms yet, and nights being added. */
  nights: string[];
  values: FormBody;
  problems: FormProblem[];
  stale?: boolean;
}

export function RoomsPage(props: { frame: Frame; model: RoomsModel; script: string }) {
  const { model } = props;
  const errors = problemsByField(model.problems);
  const cell = (night: string, type: string) => `accommodations.${night}.${type}`;
  const value = (name: string) => field(model.values, name);
  return (
    <Layout frame={props.frame} title={`Rooms: ${model.eventName}`} scripts={[props.script]}>
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
      <ErrorSummary problems={model.problems} />
      <form method="post" action={href.rooms(model.eventId)} novalidate class="room-form">
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
                  <tr data-night={night}>
                    <th scope="row" id={`row-${night}`}>
                      {day(night)}
                    </th>
                    {ROOM_TYPES.map((type) => {
                      const name = cell(night, type);
                      const messages = errors.get(name);
                      return (
                        <td class={messages ? 'invalid' : undefined}>
                          <input
                            id={fieldId(name)}
                            name={name}
                            type="number"
                            min="0"
                            step="1"
                            inputMode="numeric"
                            value={value(name)}
                            aria-labelledby={`row-${night} col-${type}`}
                            aria-invalid={messages ? 'true' : undefined}
                            aria-describedby={messages ? `${fieldId(name)}-error` : undefined}
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
      </form>

      <section aria-labelledby="add-nights-title">
        <h2 id="add-nights-title">Add nights</h2>
        <p class="hint">
          Shows empty rows for these nights in the grid above; nothing is saved until you press Save.
        </p>
        <form method="get" action={href.rooms(model.eventId)} class="inline-fields">
          <div class="field">
            <label for="add-from">First night</label>
            <input id="add-from" name="from" type="date" />
          </div>
          <div class="field">
            <label for="add-to">Last night</label>
            <input id="add-to" name="to" type="date" />
          </div>
          <button type="submit">Add nights</button>
        </form>
      </section>

      {model.nights.length > 0 && (
        <section aria-labelledby="copy-title">
          <h2 id="copy-title">Copy a night to a range of nights</h2>
          <p class="hint">
            Every night of the range gets the same rooms as the night copied; this saves at once.
          </p>
          <form method="post" action={href.copyNight(model.eventId)} class="inline-fields">
            <CsrfField token={props.frame.csrf} />
            <input type="hidden" name="version" value={model.version} />
            <div class="field">
              <label for={fieldId('copyNight')}>Night to copy</label>
              <select id={fieldId('copyNight')} name="copyNight">
                {model.nights.map((night) => (
                  <option value={night}>{day(night)}</option>
                ))}
              </select>
            </div>
            <div class={errors.has('copyFrom') ? 'field invalid' : 'field'}>
              <label for={fieldId('copyFrom')}>First night of the range</label>
              <ErrorText id={fieldId('copyFrom')} messages={errors.get('copyFrom')} />
              <input
                id={fieldId('copyFrom')}
                name="copyFrom"
                type="date"
                aria-invalid={errors.has('copyFrom') ? 'true' : undefined}
                aria-describedby={errors.has('copyFrom') ? `${fieldId('copyFrom')}-error` : undefined}
              />
            </div>
            <div class="field">
              <label for={fieldId('copyTo')}>Last night of the range</label>
              <input id={fieldId('copyTo')} name="copyTo" type="date" />
            </div>
            <button type="submit">Copy night</button>
          </form>
        </section>
      )}
    </Layout>
  );
}
