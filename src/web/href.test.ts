import { describe, expect, it } from 'vitest';
import { dashboardPath } from '../domain/dashboard-paths.js';
import { href, ROUTES, safeNext } from './href.js';
import { PAGES } from './pages/index.js';

describe('the dashboard addresses', () => {
  it('has one builder for each route pattern, and every page is registered under one of them', () => {
    expect(Object.keys(href).sort()).toEqual(Object.keys(ROUTES).sort());
    const patterns: string[] = Object.values(ROUTES);
    for (const route of PAGES.flat()) expect(patterns).toContain(route.pattern);
  });

  it('fills each pattern in under /app, encoding values so that each stays in its own segment', () => {
    expect(href.events()).toBe('/app');
    expect(href.event('8e6e14af-cbf3-4a71-ae5b-a9eb40060e0a')).toBe(
      '/app/events/8e6e14af-cbf3-4a71-ae5b-a9eb40060e0a',
    );
    expect(href.agendaSession('e1', 's1')).toBe('/app/events/e1/agenda/s1');
    expect(href.removeAgendaSession('e1', 's1')).toBe('/app/events/e1/agenda/s1/remove');
    expect(href.move('e1', 'cancel')).toBe('/app/events/e1/moves/cancel');
    expect(href.event('../sessions?x=1#y')).toBe('/app/events/..%2Fsessions%3Fx%3D1%23y');
  });

  it('builds the same paths as the links in mails, so a mailed link leads to the page that shows it', () => {
    expect(dashboardPath.event('e 1/x')).toBe(href.event('e 1/x'));
    expect(dashboardPath.account()).toBe(href.account());
    expect(dashboardPath.account()).toBe('/app/account');
    expect(dashboardPath.proposals('e1')).toBe('/app/events/e1/proposals');
  });

  it('points at a section of the event page, or at a field of the edit form', () => {
    expect(href.event('e1', 'rooms')).toBe('/app/events/e1#rooms');
    expect(href.editEvent('e1', 'formattedLocations[0].city')).toBe(
      '/app/events/e1/edit#field-formattedLocations-0-city',
    );
  });

  it('writes the event list filters and the sign-in destination as a query', () => {
    expect(href.events({ statuses: ['draft', 'booked'], search: 'sum mit', page: 2 })).toBe(
      '/app?status=draft&status=booked&q=sum+mit&page=2',
    );
    expect(href.signIn()).toBe('/app/sign-in');
    expect(href.signIn({ next: '/app/events/e1?x=1' })).toBe(
      '/app/sign-in?next=%2Fapp%2Fevents%2Fe1%3Fx%3D1',
    );
  });

  it('puts a password link’s token in the query, which the access log never writes, not in the path', () => {
    const link = href.resetPassword('AbC123');
    expect(link).toBe('/app/reset-password?token=AbC123');
    expect(link.split('?')[0]).not.toContain('AbC123');
    expect(href.resetPassword()).toBe('/app/reset-password');
    expect(href.forgotPassword()).toBe('/app/forgot-password');
  });

  it('lets sign-in lead only to a page of the dashboard itself', () => {
    for (const inside of ['/app', '/app?status=draft', '/app/events/e1', '/app/sessions?notice=x']) {
      expect(safeNext(inside)).toBe(inside);
    }
    for (const outside of [
      '//evil.example',
      'https://evil.example/app',
      '/app//evil.example',
      '/app/\\evil.example',
      '/app\\evil.example',
      '/application',
      '/app/',
      '',
    ]) {
      expect(safeNext(outside), outside).toBe('/app');
    }
  });
});
