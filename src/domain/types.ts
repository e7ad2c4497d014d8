/** The event model: plain data, shared by every layer. */

export const STATUSES = [
  'draft',
  'pending_approval',
  'wait_for_proposals',
  'proposals_received',
  'booked',
  'completed',
  'cancelled',
] as const;
export type EventStatus = (typeof STATUSES)[number];

export const BUDGET_CATEGORIES = [
  'venue',
  'fb',
  'av',
  'transport',
  'flight',
  'activities',
  'merch',
  'other',
] as const;
export type BudgetCategory = (typeof BUDGET_CATEGORIES)[number];

export const ROOM_TYPES = ['Single', 'Double', 'Twin', 'ROH', 'Suite', 'Staff', 'VIP'] as const;
export type RoomType = (typeof ROOM_TYPES)[number];

export interface DateRange {
  startDate: string;
  endDate: string;
}

export interface FormattedLocation {
  city: string;
  state?: string;
  country?: string;
  formatted_address: string;
  /** Set only when a place was resolved (`geonames:<id>`), with the four fields below; read-only. */
  place_id?: string;
  countryCode?: string;
  latitude?: number;
  longitude?: number;
  timeZone?: string;
}

export interface AgendaItem {
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

export type BudgetBreakdown = Partial<Record<BudgetCategory, number>>;
export type RoomCounts = Partial<Record<RoomType, number>>;
export type Accommodations = Record<string, RoomCounts>;

/** The full details view: what GET and PATCH return, field for field. */
export interface EventDetails {
  id: string;
  name: string;
  status: EventStatus;
  currency: string;
  location: string;
  eventDates: DateRange[];
  formattedLocations: FormattedLocation[];
  numPeople: number;
  budgetBreakdown: BudgetBreakdown;
  flexibility: string | null;
  decisionDeadline: string | null;
  accommodations: Accommodations;
  meetingRoomDates: DateRange[];
  agenda: AgendaItem[];
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

/** An event as the store keeps it: the details plus what only the service sees. */
export interface StoredEvent {
  organizationId: string;
  createdBy: string;
  /** The status before cancellation, restored on reopen. */
  previousStatus: EventStatus | null;
  details: EventDetails;
}

/** One row of the list endpoint. */
export interface EventListItem {
  id: string;
  name: string;
  dates: DateRange[];
  locations: string[];
  numPeople: number;
  status: EventStatus;
  createdAt: string;
}

export const LIMITS = {
  name: 100,
  freeText: 1000,
  formattedLocations: 50,
  decisionFactors: 50,
  additionalServices: 50,
  sessionRequirements: 50,
  accommodationNights: 400,
  meetingRoomDates: 50,
  meetingRoomRangeDays: 366,
  agendaOperations: 200,
  agendaSessions: 2000,
  sessionDates: 366,
} as const;
