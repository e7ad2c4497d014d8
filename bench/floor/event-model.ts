/**
 * The event as the contract describes it (interface-v1: "Event", "AgendaItem"), in the floor's own
 * words: the fields in the order the service writes them, so the floor's documents are the same bytes.
 */

export interface DateRange {
  startDate: string;
  endDate: string;
}

export interface Location {
  city: string;
  state?: string;
  country?: string;
  formatted_address: string;
  place_id?: string;
  countryCode?: string;
  latitude?: number;
  longitude?: number;
  timeZone?: string;
}

export interface Session {
  id: string;
  title: string;
  dates: string[];
  startTime: string;
  endTime: string;
  roomType: string;
  capacity: number;
  avRequirements: string[];
  fbRequirements: string[];
  avOtherText: string;
  fbOtherText: string;
  notes: string;
  useInternalSpace?: boolean;
  internalOfficeId?: number;
  internalOfficeName?: string;
}

export type RoomCounts = Record<string, number>;

export interface Details {
  id: string;
  name: string;
  status: string;
  currency: string;
  location: string;
  eventDates: DateRange[];
  formattedLocations: Location[];
  numPeople: number;
  budgetBreakdown: Record<string, number>;
  flexibility: string | null;
  decisionDeadline: string | null;
  accommodations: Record<string, RoomCounts>;
  meetingRoomDates: DateRange[];
  agenda: Session[];
  numMeetingRoomsNeeded: number | null;
  foodBeverageRequirements: string | null;
  meetingRooms: string | null;
  otherNotes: string | null;
  notesForVenue: string | null;
  decisionFactors: string[];
  decisionFactorOtherText: string | null;
  additionalServices: string[];
  createdAt: string;
  updatedAt: string;
}

export const BUDGET_CATEGORIES = ['venue', 'fb', 'av', 'transport', 'flight', 'activities', 'merch', 'other'];
export const ROOM_TYPES = ['Single', 'Double', 'Twin', 'ROH', 'Suite', 'Staff', 'VIP'];

export const LIMITS = {
  formattedLocations: 50,
  textLists: 50,
  sessionRequirements: 50,
  accommodationNights: 400,
  meetingRoomDates: 50,
  meetingRoomRangeDays: 366,
  agendaOperations: 200,
  agendaSessions: 2000,
  sessionDates: 366,
};

export const DEFAULT_CURRENCY = 'USD';

export function blankEvent(id: string, now: string): Details {
  return {
    id,
    name: '',
    status: 'draft',
    currency: DEFAULT_CURRENCY,
    location: '',
    eventDates: [],
    formattedLocations: [],
    numPeople: 0,
    budgetBreakdown: {},
    flexibility: null,
    decisionDeadline: null,
    accommodations: {},
    meetingRoomDates: [],
    agenda: [],
    numMeetingRoomsNeeded: null,
    foodBeverageRequirements: null,
    meetingRooms: null,
    otherNotes: null,
    notesForVenue: null,
    decisionFactors: [],
    decisionFactorOtherText: null,
    additionalServices: [],
    createdAt: now,
    updatedAt: now,
  };
}

/** The list endpoint's item for an event, as JSON text (stored beside the document). */
export const summaryOf = (details: Details): string =>
  JSON.stringify({
    id: details.id,
    name: details.name,
    dates: details.eventDates,
    locations: details.formattedLocations.map((location) => location.formatted_address),
    numPeople: details.numPeople,
    status: details.status,
    createdAt: details.createdAt,
  });
