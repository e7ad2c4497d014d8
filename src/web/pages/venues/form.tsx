/**
 * The venue form (D20), shared by "Add venue" and a venue's own page: one control per writable field
 * of a venue, named as the field, so a problem's field names its control. The city offers the same
 * place suggestions as an event's candidate cities, and resolves the same way when saved.
 */
import { VENUE_FIELDS, type Venue } from '../../../domain/venue.js';
import { type FormBody, type FormProblem, field, problemsByField } from '../../forms.js';
import { href } from '../../href.js';
import {
  CsrfField,
  ErrorAlert,
  ErrorSummary,
  type Frame,
  Layout,
  TextArea,
  TextField,
} from '../../layout.js';
import { venueFieldLabel } from '../../words.js';

/** The fields a planner types, in the form's order. */
const WRITABLE = VENUE_FIELDS.filter((description) => description.access === 'writable');
type Writable = (typeof WRITABLE)[number];

const PLAIN_NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/**
 * The form as a venue body: blank is null (a cleared field; the required ones are refused as empty),
 * a count typed as a number is that number, anything else is passed on as typed to be refused in words.
 */
export function venueBody(form: FormBody): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const description of WRITABLE) {
    const raw = field(form, description.name);
    if (description.kind.type === 'count') {
      body[description.name] = raw.trim() === '' ? null : PLAIN_NUMBER.test(raw) ? Number(raw) : raw;
    } else if (raw.trim() === '') {
      body[description.name] = description.required ? '' : null;
    } else {
      body[description.name] = raw;
    }
  }
  return body;
}

/** A stored venue as the form's values. */
export function venueValues(venue: Venue): FormBody {
  const values: FormBody = {};
  for (const description of WRITABLE) {
    const value = venue[description.name];
    values[description.name] = value === null ? '' : String(value);
  }
  return values;
}

export interface VenueFormModel {
  /** Unset for "Add venue". */
  venueId?: string;
  venueName?: string;
  values: FormBody;
  problems: FormProblem[];
  /** Why nothing was saved when no field is to blame (the venue was archived meanwhile). */
  refusal?: string;
}

function VenueControl(props: { description: Writable; values: FormBody; errors: Map<string, string[]> }) {
  const { description } = props;
  const common = {
    name: description.name,
    label: description.label,
    value: field(props.values, description.name),
    errors: props.errors,
    ...('hint' in description ? { hint: description.hint } : {}),
  };
  if (description.kind.type === 'text') return <TextArea {...common} rows={4} />;
  const type =
    description.kind.type === 'count' ? 'number' : description.kind.type === 'email' ? 'email' : 'text';
  const autocomplete = description.name === 'email' || description.name === 'phone' ? 'off' : undefined;
  return (
    <TextField
      {...common}
      type={type}
      {...(description.required ? { required: true } : {})}
      {...(autocomplete ? { autocomplete } : {})}
    />
  );
}

export function VenueFormPage(props: { frame: Frame; model: VenueFormModel }) {
  const { model } = props;
  const errors = problemsByField(model.problems);
  const adding = model.venueId === undefined;
  const title = adding ? 'Add a venue' : `Edit ${model.venueName ?? 'venue'}`;
  const controls = (names: readonly string[]) =>
    WRITABLE.filter((description) => names.includes(description.name)).map((description) => (
      <VenueControl description={description} values={model.values} errors={errors} />
    ));
  return (
    <Layout frame={props.frame} title={title} scripts={[props.frame.assets.placesScript]}>
      <p class="breadcrumb">
        <a href={href.venues()}>Venues</a>
      </p>
      <h1>{title}</h1>
      {model.refusal && (
        <ErrorAlert>
          <h2>Nothing was saved</h2>
          <p>{model.refusal}</p>
        </ErrorAlert>
      )}
      <ErrorSummary problems={model.problems} labels={venueFieldLabel} />
      <form
        method="post"
        action={adding ? href.newVenue() : href.venue(model.venueId!)}
        novalidate
        data-place-suggestions={href.placeSuggestions()}
      >
        <CsrfField token={props.frame.csrf} />
        <fieldset>
          <legend>The venue</legend>
          {controls(['name', 'email'])}
        </fieldset>
        <fieldset>
          <legend>Where it is</legend>
          <p class="hint">The city is matched to a place as an event's cities are.</p>
          {controls(['city', 'state', 'country'])}
        </fieldset>
        <fieldset>
          <legend>Contact and size</legend>
          {controls(['contactName', 'phone', 'website', 'guestRooms', 'largestMeetingRoomCapacity'])}
        </fieldset>
        {controls(['notes'])}
        <div class="form-actions">
          <button type="submit" class="primary">
            {adding ? 'Add venue' : 'Save venue'}
          </button>
          <a href={href.venues()}>Cancel</a>
        </div>
      </form>
      {!adding && (
        <section class="danger-zone" aria-labelledby="archive-title">
          <h2 id="archive-title">Archive</h2>
          <p>
            An archived venue leaves the directory and can no longer be added to events; events that already
            asked it keep showing it.
          </p>
          <a class="button danger" href={href.archiveVenue(model.venueId!)}>
            Archive this venue
          </a>
        </section>
      )}
    </Layout>
  );
}
