import { describe, expect, it } from 'vitest';
import { firstStartBanner } from './first-start-banner.js';

describe('the first-start banner', () => {
  const banner = firstStartBanner({
    address: 'http://127.0.0.1:3000',
    key: 'evp_0123456789abcdef_secret',
    inviteUrl: 'http://127.0.0.1:3000/app/invite/planner-token',
    approverInviteUrl: 'http://127.0.0.1:3000/app/invite/approver-token',
  });

  it('gives the key, the curl to try, the reference and the dashboard links, one per line', () => {
    const lines = banner.split('\n').map((line) => line.trim());
    expect(lines).toContain('API key:      evp_0123456789abcdef_secret   (shown only now: keep it)');
    expect(lines).toContain(
      'Try it:       curl -H "x-api-key: evp_0123456789abcdef_secret" http://127.0.0.1:3000/v1/events',
    );
    expect(lines).toContain('Reference:    http://127.0.0.1:3000/docs');
    expect(lines).toContain('Dashboard:    open http://127.0.0.1:3000/app/invite/planner-token');
    expect(banner).toContain('sign in at http://127.0.0.1:3000/app');
    expect(banner).toContain('http://127.0.0.1:3000/app/invite/approver-token');
  });

  it('says where the demo venues are and where their links can be read', () => {
    expect(banner).toContain('shortlist them on an event and send it');
    expect(banner).toContain('npx eventplan mail list');
  });

  it('is plain text, not a JSON line, and ends with a blank line', () => {
    expect(() => JSON.parse(banner)).toThrow();
    expect(banner.endsWith('\n\n')).toBe(true);
  });
});
