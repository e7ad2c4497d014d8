/**
 * Every page of the dashboard. Adding a page is writing its module (loader, actions and markup under
 * `pages/`, its address in `href.ts`) and listing it here.
 */
import type { PageModule } from '../page-module.js';
import { account } from './account.js';
import { agenda } from './agenda/route.js';
import { agendaSession } from './agenda/session-route.js';
import { questionPages } from './event/questions.js';
import { replyDatePages } from './event/reply-dates.js';
import { eventPage } from './event/route.js';
import { sendChangesPages } from './event/send-changes.js';
import { venueRequestPages } from './event/venue-requests.js';
import { editEvent } from './event-form/edit-event.js';
import { newEvent } from './event-form/new-event.js';
import { eventList } from './event-list.js';
import { forgotPasswordPage } from './forgot-password.js';
import { invitePage } from './invite.js';
import { movePages } from './move.js';
import { placeSuggestions } from './place-suggestions.js';
import { revisionPages } from './proposals/revision.js';
import { proposals } from './proposals/route.js';
import { resetPasswordPage } from './reset-password.js';
import { rooms } from './rooms/route.js';
import { sessions } from './sessions.js';
import { signInPage } from './sign-in.js';
import { signOutAction } from './sign-out.js';
import { archiveVenuePage } from './venues/archive-venue.js';
import { editVenue } from './venues/edit-venue.js';
import { venueList } from './venues/list.js';
import { newVenue as newVenuePage } from './venues/new-venue.js';

export const PAGES: readonly PageModule[] = [
  // Open to anyone: signing in, invitations, a forgotten password.
  signInPage,
  signOutAction,
  invitePage,
  forgotPasswordPage,
  resetPasswordPage,
  // Signed-in people.
  eventList,
  placeSuggestions,
  newEvent,
  eventPage,
  editEvent,
  rooms,
  agenda,
  agendaSession,
  proposals,
  movePages,
  venueRequestPages,
  replyDatePages,
  sendChangesPages,
  questionPages,
  revisionPages,
  venueList,
  newVenuePage,
  editVenue,
  archiveVenuePage,
  account,
  sessions,
];
