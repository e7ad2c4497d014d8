import { describe, expect, it } from 'vitest';
import { buildNewEvent } from '../domain/create-event.js';
import { WRITABLE_FIELDS } from '../domain/event-field-table.js';
import { applyUpdate } from '../domain/update-event.js';
import {
  createBody,
  DETAILS_FORM_FIELDS,
  detailsBody,
  lines,
  roomsBody,
  sessionBody,
  sessionField,
  toFormField,
} from './forms.js';
import { valuesOf } from './pages/event-form/form.js';

describe('the details form as an API body', () => {
  it('has a control for every writable field but the room block, which has a page of its own', () => {
    expect(WRITABLE_FIELDS.filter((name) => !DETAILS_FORM_FIELDS.includes(name))).toEqual(['accommodations']);
    expect(Object.keys(detailsBody({}).body).sort()).toEqual([...DETAILS_FORM_FIELDS].sort());
  });

  it('reads an event into the form and back into a body that changes nothing', () => {
    let sequence = 0;
    const newId = () => `aaaaaaaa-0000-4000-8000-${String(++sequence).padStart(12, '0')}`;
    const event = buildNewEvent(
      {
        name: 'Summit',
        formattedLocations: [{ city: 'Austin', state: 'TX', country: 'USA' }, { city: 'Lisbon' }],
        numPeople: 120,
        budgetBreakdown: { venue: 25000, fb: 8000.5 },
        flexibility: 'A week either way',
        decisionDeadline: '2027-01-15T17:00:00Z',
        meetingRoomDates: [{ startDate: '2027-03-01', endDate: '2027-03-03' }],
        numMeetingRoomsNeeded: 3,
        foodBeverageRequirements: 'Vegetarian options',
        meetingRooms: 'One plenary room',
        notesForVenue: 'Flexible on layout',
        decisionFactors: ['Price', 'Other'],
        decisionFactorOtherText: 'Sustainability',
        additionalServices: ['Airport transfers'],
      },
      { id: '7d0e6f4a-3b2c-4d1e-8f9a-0b1c2d3e4f50', now: '2026-01-01T00:00:00.000Z', newId },
    );
    const { body } = detailsBody(valuesOf(event));
    expect(applyUpdate(event, body, { now: '2026-01-02T00:00:00.000Z', newId }).changed).toBe(false);
  });

  it('sends every control under its API name, blanks as cleared values', () => {
    const { body } = detailsBody({
      name: 'Summit',
      numPeople: '120',
      numMeetingRoomsNeeded: '',
      otherNotes: '  ',
      notesForVenue: 'Quiet rooms',
      decisionFactors: 'Price\r\n\r\n Location \n',
      additionalServices: '',
      'budgetBreakdown.venue': '25000',
      'budgetBreakdown.fb': '8000.50',
      'budgetBreakdown.av': '',
    });
    expect(body).toMatchObject({
      name: 'Summit',
      numPeople: 120,
      numMeetingRoomsNeeded: null,
      otherNotes: null,
      notesForVenue: 'Quiet rooms',
      decisionFactors: ['Price', 'Location'],
      additionalServices: [],
      budgetBreakdown: { venue: 25000, fb: 8000.5, av: null, other: null },
    });
  });

  it('passes on what is not plainly a number, so the API refuses it with its own message', () => {
    const { body } = detailsBody({ name: 'x', numPeople: 'twelve', 'budgetBreakdown.venue': '1e3' });
    expect(body.numPeople).toBe('twelve');
    expect((body.budgetBreakdown as Record<string, unknown>).venue).toBe('1e3');
  });

  it('sends negative and fractional numbers as numbers, so the message is about their value', () => {
    const { body } = detailsBody({ name: 'x', numPeople: '12.5', 'budgetBreakdown.venue': '-3' });
    expect(body.numPeople).toBe(12.5);
    expect((body.budgetBreakdown as Record<string, unknown>).venue).toBe(-3);
    expect(sessionBody({ capacity: '-1' }).capacity).toBe(-1);
  });

  it('leaves out blank rows and maps problems back to the row the person typed in', () => {
    const { body, rows } = detailsBody({
      name: 'x',
      'formattedLocations[0].city': '',
      'formattedLocations[1].city': 'Lisbon',
      'formattedLocations[1].country': 'Portugal',
      'formattedLocations[2].city': '',
      'formattedLocations[2].state': 'CA',
      'meetingRoomDates[0].startDate': '',
      'meetingRoomDates[0].endDate': '',
      'meetingRoomDates[3].startDate': '2027-03-03',
      'meetingRoomDates[3].endDate': '2027-03-01',
    });
    expect(body.formattedLocations).toEqual([
      { city: 'Lisbon', country: 'Portugal' },
      { city: '', state: 'CA' },
    ]);
    expect(body.meetingRoomDates).toEqual([{ startDate: '2027-03-03', endDate: '2027-03-01' }]);
    expect(toFormField('formattedLocations[1].city', rows)).toBe('formattedLocations[2].city');
    expect(toFormField('meetingRoomDates[0]', rows)).toBe('meetingRoomDates[3]');
    expect(toFormField('name', rows)).toBe('name');
  });

  it('sends only what was filled in on create, with the currency in capitals', () => {
    const { body } = createBody({ name: 'New', numPeople: '', currency: 'eur', 'budgetBreakdown.venue': '' });
    expect(body).toEqual({ name: 'New', currency: 'EUR', budgetBreakdown: {} });
  });
});

describe('the room grid as an accommodations merge patch', () => {
  const stored = { '2027-03-01': { Single: 10, Double: 2 }, '2027-03-02': { Single: 5 } };

  it('changes cells, removes blanked room types and blank nights, and adds filled new nights only', () => {
    const patch = roomsBody(
      {
        'accommodations.2027-03-01.Single': '12',
        'accommodations.2027-03-01.Double': '',
        'accommodations.2027-03-02.Single': '',
        'accommodations.2027-03-03.Suite': '1',
        'accommodations.2027-03-04.Single': '',
      },
      stored,
    );
    expect(patch).toEqual({
      accommodations: {
        '2027-03-01': { Single: 12, Double: null },
        '2027-03-02': null,
        '2027-03-03': { Suite: 1 },
      },
    });
  });

  it('removes a night ticked for removal whatever its cells say', () => {
    const patch = roomsBody({ 'accommodations.2027-03-01.Single': '10', removeNight: '2027-03-01' }, stored);
    expect(patch.accommodations).toMatchObject({ '2027-03-01': null });
  });
});

describe('agenda forms', () => {
  it('builds a session from its controls and names problems after them', () => {
    expect(
      sessionBody({
        title: 'Opening',
        dates: ['2027-03-01', '2027-03-02'],
        startTime: '09:00',
        endTime: '10:30',
        capacity: '',
      }),
    ).toMatchObject({
      title: 'Opening',
      dates: ['2027-03-01', '2027-03-02'],
      capacity: 0,
      avRequirements: [],
    });
    expect(sessionField('agendaOperations[0].session.startTime')).toBe('startTime');
    expect(sessionField('agendaOperations[0].sessionId')).toBe('sessionId');
    expect(sessionField('agendaOperations[0].session.dates[1]')).toBe('dates');
    expect(lines(' a \n\nb')).toEqual(['a', 'b']);
  });
});
