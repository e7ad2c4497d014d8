import { describe, expect, it } from 'vitest';
import {
  checkEmailAddress,
  checkHttpsUrl,
  checkLine,
  checkPercent,
  isEmailAddress,
} from './contact-values.js';
import { INVALID, Problems } from './problems.js';

function run<T>(check: (value: unknown, path: string, problems: Problems) => T, value: unknown) {
  const problems = new Problems();
  const result = check(value, 'field', problems);
  return { result, codes: problems.list.map((problem) => problem.code) };
}

const line = (value: unknown) => run((v, p, pr) => checkLine(v, p, pr, { max: 10, nonEmpty: true }), value);

describe('checkLine', () => {
  it('accepts one line up to the limit', () => {
    expect(line('Hotel Lisa').result).toBe('Hotel Lisa');
    expect(line('Hôtel ✓').result).toBe('Hôtel ✓');
  });

  it('refuses every kind of line break, since the text may reach a mail header', () => {
    for (const text of ['a\nb', 'a\rb', 'a\r\nb', 'a\u2028b', 'a\u2029b', 'a\u0085b', 'a\u000bb']) {
      expect(line(text)).toEqual({ result: INVALID, codes: ['line_break'] });
    }
  });

  it('refuses other control characters such as a tab', () => {
    expect(line('a\tb')).toEqual({ result: INVALID, codes: ['invalid_characters'] });
    expect(line('a\u007fb')).toEqual({ result: INVALID, codes: ['invalid_characters'] });
  });

  it('reports a line break before a control character that comes earlier in the text', () => {
    expect(line('\tb\nc').codes).toEqual(['line_break']);
  });

  it('keeps the ordinary text checks: type, blank and length', () => {
    expect(line(5).codes).toEqual(['invalid_type']);
    expect(line('   ').codes).toEqual(['empty']);
    expect(line('a'.repeat(11)).codes).toEqual(['too_long']);
  });
});

describe('checkEmailAddress', () => {
  const email = (value: unknown) => run(checkEmailAddress, value);

  it('accepts one ordinary address', () => {
    for (const address of ['sales@hotel.example', 'a.b+rfp@sub.hotel-lisa.example', 'events@localhost']) {
      expect(email(address).result).toBe(address);
    }
  });

  it('refuses lists, display names, spaces and anything that is not one address', () => {
    for (const text of [
      'a@x.example,b@x.example',
      'a@x.example; b@x.example',
      'Sales <sales@x.example>',
      'sales @x.example',
      'sales',
      '@x.example',
      'sales@',
      'sales@-x.example',
      '"quoted"@x.example',
    ]) {
      expect(email(text), text).toEqual({ result: INVALID, codes: ['invalid_format'] });
    }
  });

  it('refuses an address a browser takes but mail cannot be sent to', () => {
    for (const text of [
      '.sales@x.example',
      'sales.@x.example',
      'a..b@x.example',
      `${'a'.repeat(65)}@x.example`,
    ]) {
      expect(email(text), text).toEqual({ result: INVALID, codes: ['invalid_format'] });
    }
  });

  it('refuses a line break as such, never as a header injection', () => {
    expect(email('a@x.example\r\nBcc: b@y.example').codes).toEqual(['line_break']);
  });

  it('refuses an address longer than SMTP carries', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example`;
    expect(long.length).toBeGreaterThan(254);
    expect(email(long).codes).toEqual(['too_long']);
    expect(run((v, p, pr) => checkEmailAddress(v, p, pr, 12), 'abc@x.example').codes).toEqual(['too_long']);
    expect(isEmailAddress(long)).toBe(false);
  });
});

describe('checkHttpsUrl', () => {
  const url = (value: unknown) => run((v, p, pr) => checkHttpsUrl(v, p, pr, 2000), value);

  it('accepts an https address and keeps it as written', () => {
    expect(url('https://hotel-lisa.example').result).toBe('https://hotel-lisa.example');
    expect(url('https://hotel.example/en/meetings?x=1#rfp').result).toBe(
      'https://hotel.example/en/meetings?x=1#rfp',
    );
  });

  it('refuses other schemes, relative addresses and text that is not a URL', () => {
    for (const text of [
      'http://hotel.example',
      'javascript:alert(1)',
      'ftp://hotel.example',
      'hotel.example',
      '/x',
      'https://',
      'https://a b.example',
    ]) {
      expect(url(text), text).toEqual({ result: INVALID, codes: ['invalid_format'] });
    }
  });

  it('refuses a user name or password in the address', () => {
    expect(url('https://user:secret@hotel.example').codes).toEqual(['invalid_format']);
  });
});

describe('checkPercent', () => {
  const percent = (value: unknown) => run(checkPercent, value);

  it('accepts 0 to 100 with at most two decimals', () => {
    for (const value of [0, 12.5, 7.25, 100]) expect(percent(value).result).toBe(value);
  });

  it('refuses more than 100, negatives, three decimals and non-numbers', () => {
    expect(percent(100.01).codes).toEqual(['out_of_range']);
    expect(percent(-1).codes).toEqual(['out_of_range']);
    expect(percent(12.345).codes).toEqual(['invalid_format']);
    expect(percent('12').codes).toEqual(['invalid_type']);
    expect(percent(Number.NaN).codes).toEqual(['invalid_type']);
  });
});
