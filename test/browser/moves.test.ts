/**
 * D16's status moves in a real browser: each button leads to a confirmation step with a button of the
 * same name; who may make which move; the checklist that blocks sending; comments and reasons; cancel
 * then reopen; and moves refused when forged or made stale.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addGroupMember, createGroup } from '../../src/app/organizations.js';
import { asPerson, shortlistVenue } from '../helpers/sourcing.js';
import {
  clickAndLoad,
  type Dashboard,
  describeWithoutChromium,
  fullEvent,
  hasChromium,
  openDashboard,
  seriousViolations,
} from './dashboard.js';

if (!hasChromium) {
  describeWithoutChromium('status moves in the planning dashboard');
} else {
  describe('status moves in the planning dashboard', () => {
    let d: Dashboard;
    let planner: Page;
    let approver: Page;

    beforeAll(async () => {
      d = await openDashboard();
      [planner, approver] = await Promise.all([
        d.signedIn(d.people.planner.email),
        d.signedIn(d.people.approver.email),
      ]);
    }, 60_000);
    afterAll(async () => d?.close());

    const statusOf = async (id: string) => (await d.api('GET', `/v1/events/${id}`)).json.status as string;
    /** The move buttons the event page offers this person, in order. */
    const offered = async (page: Page, id: string) => {
      await page.goto(`${d.base}/app/events/${id}`);
      return page.locator('.moves').getByRole('button').allInnerTexts();
    };
    /** Presses a move's button on the event page, then the button of the same name on the confirmation step. */
    const move = async (page: Page, id: string, label: string, note?: { field: string; text: string }) => {
      await page.goto(`${d.base}/app/events/${id}`);
      await clickAndLoad(page, page.locator('.moves').getByRole('button', { name: label, exact: true }));
      expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/app/events/${id}/moves/`));
      if (note) await page.getByRole('textbox', { name: note.field }).fill(note.text);
      await clickAndLoad(page, page.getByRole('main').getByRole('button', { name: label, exact: true }));
    };
    const csrfOf = (page: Page) => page.locator('input[name="_csrf"]').first().inputValue();
    /** A ready event with a venue on its shortlist, as D16's checklist asks before sending (D21). */
    const readyEvent = async (body: Record<string, unknown>) => {
      const id = await d.createEvent(body);
      const venue = await d.api('POST', '/v1/venues', {
        name: `Venue for ${String(body.name)}`,
        email: `${id}@venues.example`,
        city: 'Lisbon',
      });
      const shortlisted = await d.api('POST', `/v1/events/${id}/venue-requests`, { venueId: venue.json.id });
      expect(shortlisted.status, JSON.stringify(shortlisted.json)).toBe(201);
      return id;
    };

    it('blocks "Request approval" with the checklist, each missing item linking to its field', async () => {
      const id = await d.createEvent({ name: 'Bare draft' });
      expect(await offered(planner, id)).toEqual(['Request approval', 'Cancel event']);
      const checklist = planner.getByRole('region', { name: 'Before sending, fill in' });
      const links = checklist.getByRole('link');
      await expect(links.allInnerTexts()).resolves.toEqual([
        'Add at least one candidate city.',
        'Give the number of attendees.',
        'Give the event at least one day: meeting-room dates or a night of rooms.',
        'Set a decision deadline.',
        'Add at least one venue to the shortlist.',
      ]);
      await move(planner, id, 'Request approval');
      await expect(planner.getByRole('alert').innerText()).resolves.toContain(
        'The event is not ready to send; nothing changed',
      );
      expect(await seriousViolations(planner)).toEqual([]);
      expect(await statusOf(id)).toBe('draft');
      // A link leads to the field in the edit form.
      await clickAndLoad(planner, planner.getByRole('link', { name: 'Set a decision deadline.' }));
      expect(new URL(planner.url()).pathname).toBe(`/app/events/${id}/edit`);
      await expect(planner.evaluate(() => location.hash)).resolves.toBe('#field-decisionDeadline');
      await expect(planner.getByLabel('Decision deadline').isVisible()).resolves.toBe(true);
      await expect(planner.locator('#field-formattedLocations').count()).resolves.toBe(1);
      await expect(planner.locator('#field-numPeople').count()).resolves.toBe(1);
      await expect(planner.locator('#field-meetingRoomDates').count()).resolves.toBe(1);
    });

    it('shows warnings without blocking: more rooms than attendees, a session too big, a deadline passed', async () => {
      const id = await readyEvent(
        fullEvent({ name: 'Crowded', numPeople: 30, decisionDeadline: '2020-01-01' }),
      );
      await planner.goto(`${d.base}/app/events/${id}`);
      const warnings = await planner.getByRole('region', { name: 'Worth a look' }).innerText();
      expect(warnings).toContain(
        'The peak night (Thu, May 2, 2030) has 52 rooms, more than the 30 attendees.',
      );
      expect(warnings).toContain('Session "Opening plenary" expects 120 people, more than the 30 attendees.');
      expect(warnings).toContain('The decision deadline has passed.');
      await move(planner, id, 'Request approval');
      expect(await statusOf(id)).toBe('pending_approval');
    });

    it('takes an event from draft to completed through approval, with a return to draft on the way', async () => {
      const id = await readyEvent(fullEvent({ name: 'Annual conference' }));
      await move(planner, id, 'Request approval');
      await expect(planner.getByText('Status changed.').isVisible()).resolves.toBe(true);
      expect(await statusOf(id)).toBe('pending_approval');
      // The creator may withdraw but not approve; the approver may approve or return it.
      expect(await offered(planner, id)).toEqual(['Return to draft', 'Cancel event']);
      expect(await offered(approver, id)).toEqual(['Approve and send', 'Return to draft', 'Cancel event']);

      // Return to draft needs a comment: without one, the error is beside the field and nothing moves.
      await approver.goto(`${d.base}/app/events/${id}`);
      await clickAndLoad(approver, approver.getByRole('button', { name: 'Return to draft' }));
      expect(await approver.getByRole('heading', { level: 1 }).innerText()).toBe(
        'Return to draft: Annual conference',
      );
      expect(await seriousViolations(approver)).toEqual([]);
      await approver.getByRole('main').getByRole('button', { name: 'Return to draft' }).click();
      await approver.waitForLoadState('load');
      const comment = approver.getByRole('textbox', { name: 'Comment' });
      await expect(comment.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(approver.locator('#field-comment-error').innerText()).resolves.toBe(
        "Enter a comment: it is kept in the event's history.",
      );
      expect(await seriousViolations(approver)).toEqual([]);
      expect(await statusOf(id)).toBe('pending_approval');
      await comment.fill('Budget too high for the venue line');
      await clickAndLoad(
        approver,
        approver.getByRole('main').getByRole('button', { name: 'Return to draft' }),
      );
      expect(await statusOf(id)).toBe('draft');

      // The planner sees why, and asks again; the approver approves and sends.
      await planner.goto(`${d.base}/app/events/${id}`);
      await expect(planner.locator('.status-note').innerText()).resolves.toBe(
        'Returned with a comment by Approver: “Budget too high for the venue line”',
      );
      await move(planner, id, 'Request approval');
      await move(approver, id, 'Approve and send');
      expect(await statusOf(id)).toBe('wait_for_proposals');
      await move(planner, id, 'Proposals received');
      expect(await statusOf(id)).toBe('proposals_received');
      await move(approver, id, 'Mark booked');
      expect(await statusOf(id)).toBe('booked');
      await move(planner, id, 'Mark completed');
      expect(await statusOf(id)).toBe('completed');
      expect(await offered(planner, id)).toEqual([]);
      await expect(planner.getByText('No status move is open to you now.').isVisible()).resolves.toBe(true);
      // Every move is in the history, with who made it.
      const history = await planner.locator('#history').innerText();
      expect(history).toContain('Approver moved it from Waiting for approval to Draft');
      expect(history).toContain('Comment: Budget too high for the venue line');
      expect(history).toContain('Approver moved it from Waiting for approval to Waiting for proposals');
      expect(history).toContain('Planner moved it from Booked to Completed');
    });

    it('cancels with a required reason, then reopens back to the status it had', async () => {
      const id = await readyEvent(fullEvent({ name: 'Roadshow' }));
      await move(planner, id, 'Request approval');
      await move(approver, id, 'Approve and send');
      await move(planner, id, 'Proposals received');
      await planner.goto(`${d.base}/app/events/${id}`);
      await clickAndLoad(planner, planner.getByRole('button', { name: 'Cancel event' }));
      await planner.getByRole('main').getByRole('button', { name: 'Cancel event' }).click();
      await planner.waitForLoadState('load');
      await expect(planner.locator('#field-reason-error').innerText()).resolves.toBe(
        "Enter a reason: it is kept in the event's history.",
      );
      expect(await statusOf(id)).toBe('proposals_received');
      await planner.getByRole('textbox', { name: 'Reason' }).fill('Budget frozen until next quarter');
      await clickAndLoad(planner, planner.getByRole('main').getByRole('button', { name: 'Cancel event' }));
      expect(await statusOf(id)).toBe('cancelled');
      await expect(
        planner.getByText('This event is cancelled: reopen it to change it.').isVisible(),
      ).resolves.toBe(true);
      await expect(planner.getByRole('link', { name: 'Edit details' }).count()).resolves.toBe(0);
      await expect(planner.locator('.status-note').innerText()).resolves.toBe(
        'Cancelled by Planner: “Budget frozen until next quarter”',
      );
      expect(await offered(approver, id)).toEqual(['Reopen']);
      await move(approver, id, 'Reopen');
      expect(await statusOf(id)).toBe('proposals_received');
      expect(await offered(planner, id)).toEqual(['Mark booked', 'Cancel event']);
    });

    it('offers "Send to venues" to an approver on a draft, and to a creator without approvers', async () => {
      const id = await readyEvent(fullEvent({ name: 'Approver sends' }));
      expect(await offered(approver, id)).toEqual(['Send to venues', 'Cancel event']);
      await move(approver, id, 'Send to venues');
      expect(await statusOf(id)).toBe('wait_for_proposals');

      // The outsider is alone in a group of their own organization: their events have no approvers.
      const outsiderOrg = (await d.t.deps.store.identity.findUser(d.people.outsider.id))!.organizationId;
      const { id: soloGroup } = await createGroup(d.t.deps, { organizationId: outsiderOrg, name: 'Solo' });
      await addGroupMember(d.t.deps, { groupId: soloGroup, userId: d.people.outsider.id, role: 'member' });
      const outsider = await d.signedIn(d.people.outsider.email);
      await outsider.goto(`${d.base}/app/events/new`);
      await outsider.getByRole('textbox', { name: 'Name', exact: true }).fill('Solo retreat');
      await outsider.getByLabel('Attendees').fill('12');
      await outsider.getByLabel('City 1').fill('Bergen');
      await outsider.getByLabel('Decision deadline').fill('2030-01-31');
      await outsider.getByLabel('Range 1: first day').fill('2030-06-10');
      await outsider.getByLabel('Range 1: last day').fill('2030-06-11');
      await clickAndLoad(outsider, outsider.getByRole('button', { name: 'Save' }));
      expect(new URL(outsider.url()).pathname, await outsider.locator('main').innerText()).not.toBe(
        '/app/events/new',
      );
      const solo = new URL(outsider.url()).pathname.split('/').pop()!;
      await shortlistVenue(
        d.t.deps,
        asPerson({ organizationId: outsiderOrg, userId: d.people.outsider.id }),
        solo,
      );
      expect(await offered(outsider, solo)).toEqual(['Send to venues', 'Cancel event']);
      await move(outsider, solo, 'Send to venues');
      await expect(outsider.locator('.status').innerText()).resolves.toBe('Waiting for proposals');
    });

    it('refuses a forged move the person was not offered, and a move another one made stale', async () => {
      const id = await readyEvent(fullEvent({ name: 'Guarded' }));
      await move(planner, id, 'Request approval');
      // The creator is not offered "Approve and send"; posting it anyway is refused and changes nothing.
      await planner.goto(`${d.base}/app/events/${id}`);
      const forged = await planner.request.post(`${d.base}/app/events/${id}/moves/approve_and_send`, {
        form: { _csrf: await csrfOf(planner) },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(409);
      expect(await forged.text()).toContain('This move is not open to you now.');
      expect(await statusOf(id)).toBe('pending_approval');

      // The approver opens the confirmation step; meanwhile the planner withdraws the request.
      await approver.goto(`${d.base}/app/events/${id}/moves/approve_and_send`);
      await move(planner, id, 'Return to draft', { field: 'Comment', text: 'Withdrawn: dates change' });
      await approver.getByRole('main').getByRole('button', { name: 'Approve and send' }).click();
      await approver.waitForLoadState('load');
      await expect(approver.getByRole('alert').innerText()).resolves.toContain(
        'This move is not open to you now. The event is now Draft.',
      );
      expect(await statusOf(id)).toBe('draft');

      // A sibling of the planner's group (a member, not an approver) is not granted: a 404, nothing moves.
      const sibling = await d.signedIn(d.people.sibling.email);
      const fromSibling = await sibling.request.post(`${d.base}/app/events/${id}/moves/cancel`, {
        form: { _csrf: await csrfOf(sibling), reason: 'Not mine to cancel' },
        maxRedirects: 0,
      });
      expect(fromSibling.status()).toBe(404);
      expect(await statusOf(id)).toBe('draft');
    });

    it('loads nothing from outside the server and logs no console error', () => {
      expect(d.requested.filter((url) => !url.startsWith(d.base))).toEqual([]);
      expect(d.consoleErrors.filter((text) => !/status of (400|409)/.test(text))).toEqual([]);
    });
  });
}
