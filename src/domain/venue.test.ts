import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Problem, ValidationError, VenueArchivedError } from './errors.js';
import {
  applyVenueUpdate,
  archiveVenue,
  buildNewVenue,
  VENUE_FIELD_LABELS,
  VENUE_FIELDS,
  type Venue,
  type VenueFieldName,
  venueAddress,
  venueSummary,
  withVenuePlace,
} from './venue.js';

const ID = '5b1f0c5e-8c1a-4f7e-9a51-3c2d1e0f9a8b';
const CREATED = '2027-01-05T09:00:00.000Z';
const NOW = '2027-01-06T09:00:00.000Z';

const FULL_BODY = {
  name: 'Hotel Lisa',
  email: 'groups@hotel-lisa.example',
  city: 'Lisbon',
  state: 'Lisboa',
  country: 'Portugal',
  contactName: 'Ana Sousa',
  phone: '+351 21 000 0000',
  website: 'https://hotel-lisa.example',
  guestRooms: 240,
  largestMeetingRoomCapacity: 400,
  notes: 'Rooftop terrace.\nAsk for Ana.',
};

function problemsOf(action: () => unknown): Array<[string, string]> {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationError)
      return error.problems.map((problem: Problem) => [problem.field, problem.code]);
    throw error;
  }
  throw new Error('expected a ValidationError, but the call succeeded');
}

const create = (body: unknown) => buildNewVenue(body, { id: ID, now: CREATED });
const LISBON = { place_id: 'geonames:2267057', countryCode: 'PT', timeZone: 'Europe/Lisbon' };
const venue = (): Venue => withVenuePlace(create(FULL_BODY), LISBON);

describe('the venue field table', () => {
  it('names exactly the fields of a venue, and a venue is written in the table order', () => {
    expectTypeOf<VenueFieldName>().toEqualTypeOf<keyof Venue>();
    const names = VENUE_FIELDS.map((field) => field.name);
    expect(Object.keys(venue())).toEqual(names);
  });

  it('gives every field a label', () => {
    for (const field of VENUE_FIELDS) expect(VENUE_FIELD_LABELS[field.name]).toMatch(/^[A-Z]/);
  });
});

describe('buildNewVenue (D20)', () => {
  it('keeps every field given and sets the service fields', () => {
    expect(create(FULL_BODY)).toEqual({
      id: ID,
      ...FULL_BODY,
      archivedAt: null,
      createdAt: CREATED,
      updatedAt: CREATED,
    });
  });

  it('needs only a name, an email and a city; the rest is null', () => {
    expect(create({ name: 'Inn', email: 'inn@x.example', city: 'Porto' })).toMatchObject({
      state: null,
      country: null,
      contactName: null,
      phone: null,
      website: null,
      guestRooms: null,
      largestMeetingRoomCapacity: null,
      notes: null,
    });
  });

  it('reports every problem at once', () => {
    expect(
      problemsOf(() =>
        create({
          email: 'a@x.example, b@x.example',
          city: '',
          website: 'http://hotel.example',
          guestRooms: -3,
          largestMeetingRoomCapacity: 1.5,
          notes: 'n'.repeat(1001),
          stars: 5,
          id: ID,
          createdAt: CREATED,
        }),
      ),
    ).toEqual([
      ['stars', 'unknown_field'],
      ['id', 'read_only'],
      ['createdAt', 'read_only'],
      ['name', 'required'],
      ['email', 'invalid_format'],
      ['city', 'empty'],
      ['website', 'invalid_format'],
      ['guestRooms', 'out_of_range'],
      ['largestMeetingRoomCapacity', 'invalid_type'],
      ['notes', 'too_long'],
    ]);
  });

  it('refuses a name or an email with a line break, since both end up in mail headers', () => {
    expect(
      problemsOf(() =>
        create({ ...FULL_BODY, name: 'Hotel\r\nBcc: x@y.example', email: 'a@x.example\nBcc: b@y.example' }),
      ),
    ).toEqual([
      ['name', 'line_break'],
      ['email', 'line_break'],
    ]);
  });

  it('keeps every other one-line field to one line too; only the notes may span lines', () => {
    for (const key of ['city', 'state', 'country', 'contactName', 'phone']) {
      expect(problemsOf(() => create({ ...FULL_BODY, [key]: 'a\nb' }))).toEqual([[key, 'line_break']]);
    }
  });

  it('refuses a name over 200 characters and accepts one of exactly 200', () => {
    expect(create({ ...FULL_BODY, name: 'n'.repeat(200) }).name).toHaveLength(200);
    expect(problemsOf(() => create({ ...FULL_BODY, name: 'n'.repeat(201) }))).toEqual([['name', 'too_long']]);
  });

  it('ignores organizationId and refuses prototype keys like any unknown field', () => {
    expect(create({ ...FULL_BODY, organizationId: 'other' })).not.toHaveProperty('organizationId');
    expect(
      problemsOf(() =>
        create(JSON.parse(`{"__proto__": {"x": 1}, "name": "N", "email": "n@x.example", "city": "C"}`)),
      ),
    ).toEqual([['__proto__', 'unknown_field']]);
  });

  it('refuses a body that is not an object', () => {
    expect(problemsOf(() => create([FULL_BODY]))).toEqual([['', 'invalid_type']]);
  });

  it('answers any JSON body with a venue or a ValidationError naming fields, never anything else', () => {
    const key = fc.constantFrom(
      ...VENUE_FIELDS.map((field) => field.name),
      'organizationId',
      '__proto__',
      'other',
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 2 })), (body) => {
        try {
          create(body);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
          for (const problem of (error as ValidationError).problems)
            expect(problem.field).toEqual(expect.any(String));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('applyVenueUpdate (D6 merge patch)', () => {
  it('changes the fields sent, clears optional ones with null and moves updatedAt', () => {
    const { venue: updated, changed } = applyVenueUpdate(
      venue(),
      { phone: null, guestRooms: 250 },
      { now: NOW },
    );
    expect(changed).toBe(true);
    expect(updated).toMatchObject({ phone: null, guestRooms: 250, name: 'Hotel Lisa', updatedAt: NOW });
  });

  it('returns the same venue, unchanged, when the patch changes nothing', () => {
    const current = venue();
    const outcome = applyVenueUpdate(
      current,
      { name: 'Hotel Lisa', id: ID, createdAt: CREATED },
      { now: NOW },
    );
    expect(outcome).toEqual({ venue: current, changed: false, placeChanged: false });
    expect(outcome.venue).toBe(current);
  });

  it('accepts a venue read back whole and sent again, resolved place included', () => {
    const current = venue();
    expect(applyVenueUpdate(current, structuredClone(current), { now: NOW }).changed).toBe(false);
  });

  it('refuses to clear a required field, to change a read-only one, and unknown fields, all at once', () => {
    expect(
      problemsOf(() =>
        applyVenueUpdate(venue(), { name: null, email: null, timeZone: 'UTC', rating: 4 }, { now: NOW }),
      ),
    ).toEqual([
      ['name', 'required'],
      ['email', 'required'],
      ['timeZone', 'read_only'],
      ['rating', 'unknown_field'],
    ]);
  });

  it('drops the resolved place when the city, state or country changes, and says so', () => {
    const outcome = applyVenueUpdate(venue(), { city: 'Porto' }, { now: NOW });
    expect(outcome.placeChanged).toBe(true);
    expect(outcome.venue).not.toHaveProperty('place_id');
    expect(outcome.venue).not.toHaveProperty('timeZone');
    const notes = applyVenueUpdate(venue(), { notes: 'Quiet.' }, { now: NOW });
    expect(notes.placeChanged).toBe(false);
    expect(notes.venue.place_id).toBe('geonames:2267057');
  });

  it('takes the venue id back in another case as the same id', () => {
    expect(applyVenueUpdate(venue(), { id: ID.toUpperCase() }, { now: NOW }).changed).toBe(false);
    expect(
      problemsOf(() =>
        applyVenueUpdate(venue(), { id: '5b1f0c5e-8c1a-4f7e-9a51-000000000000' }, { now: NOW }),
      ),
    ).toEqual([['id', 'read_only']]);
  });

  it('answers any JSON patch with a venue or a ValidationError, and never modifies the venue it was given', () => {
    const key = fc.constantFrom(
      ...VENUE_FIELDS.map((field) => field.name),
      'organizationId',
      '__proto__',
      'other',
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(null))), (patch) => {
        const current = venue();
        const before = structuredClone(current);
        try {
          const { venue: updated } = applyVenueUpdate(current, patch, { now: NOW });
          expect(updated.name.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
        expect(current).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses any change to an archived venue', () => {
    const archived = archiveVenue(venue(), NOW);
    expect(() => applyVenueUpdate(archived, { notes: 'x' }, { now: NOW })).toThrow(VenueArchivedError);
  });
});

describe('withVenuePlace', () => {
  it('adds a resolved place in the table order, and takes it away again', () => {
    const resolved = venue();
    expect(resolved).toMatchObject(LISBON);
    const unresolved = withVenuePlace(resolved, null);
    expect(unresolved).not.toHaveProperty('place_id');
    expect(Object.keys(withVenuePlace(unresolved, { place_id: 'geonames:1', countryCode: 'PT' }))).toEqual(
      VENUE_FIELDS.map((field) => field.name).filter((name) => name !== 'timeZone'),
    );
  });
});

describe('archiveVenue', () => {
  it('archives once; archiving again changes nothing', () => {
    const archived = archiveVenue(venue(), NOW);
    expect(archived).toMatchObject({ archivedAt: NOW, updatedAt: NOW });
    expect(archiveVenue(archived, '2027-02-01T00:00:00.000Z')).toBe(archived);
  });
});

describe('venueSummary and venueAddress', () => {
  it('shows what a request shows of its venue, and its address without empty parts', () => {
    expect(venueSummary(venue())).toEqual({
      id: ID,
      name: 'Hotel Lisa',
      email: 'groups@hotel-lisa.example',
      city: 'Lisbon',
    });
    expect(venueAddress(venue())).toBe('Lisbon, Lisboa, Portugal');
    expect(venueAddress({ city: 'Porto', state: null, country: 'Portugal' })).toBe('Porto, Portugal');
  });
});
