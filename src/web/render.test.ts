import { describe, expect, it } from 'vitest';
import { withNotice } from './render.js';

describe('the notice a redirect names', () => {
  it('goes in the query, before any fragment, so the page both says it and scrolls to its section', () => {
    expect(withNotice('/app/events/e1', 'saved')).toBe('/app/events/e1?notice=saved');
    expect(withNotice('/app/events/e1#rooms', 'saved')).toBe('/app/events/e1?notice=saved#rooms');
    expect(withNotice('/app?page=2', 'created')).toBe('/app?page=2&notice=created');
  });
});
