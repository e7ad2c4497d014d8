import { describe, expect, it } from 'vitest';
import { attachment, csvCell, safeFileName, toCsv } from './csv.js';

describe('the CSV writer', () => {
  it('starts with a byte-order mark and ends every row with CRLF', () => {
    const text = toCsv([
      ['Row', 'Hotel Avenida'],
      ['Total', 1234.5],
    ]);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1)).toBe('Row,Hotel Avenida\r\nTotal,1234.5\r\n');
  });

  it('writes numbers as plain numbers and nothing as an empty cell', () => {
    expect(csvCell(25000)).toBe('25000');
    expect(csvCell(0.5)).toBe('0.5');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('Lisbon, Portugal')).toBe('"Lisbon, Portugal"');
    expect(csvCell('The “Grand” said "yes"')).toBe('"The “Grand” said ""yes"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('plain words')).toBe('plain words');
  });

  it.each([
    ['=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
  ])('never lets text typed by anyone start a formula: %j', (typed, written) => {
    expect(csvCell(typed)).toBe(written);
  });

  it('keeps accents and other scripts as they are, in UTF-8', () => {
    const text = toCsv([['Hôtel Cândido', '東京']]);
    expect(Buffer.from(text, 'utf8').toString('utf8')).toBe('\uFEFFHôtel Cândido,東京\r\n');
  });

  it('makes a file name of plain ASCII words, safe in a header', () => {
    expect(safeFileName('EMEA sales summit 2027', 'csv')).toBe('emea-sales-summit-2027.csv');
    expect(safeFileName('Café "Olé"; rm -rf /\r\nX-Evil: 1', 'csv')).toBe('cafe-ole-rm-rf-x-evil-1.csv');
    expect(safeFileName('東京', 'csv', 'proposals')).toBe('proposals.csv');
    expect(safeFileName('a'.repeat(100), 'csv')).toBe(`${'a'.repeat(60)}.csv`);
    expect(attachment('x.csv')).toBe('attachment; filename="x.csv"');
  });
});
