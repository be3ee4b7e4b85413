import { ValidationError } from '../../../../../src/core/errors';
import {
  MAX_PUBLISHERS_PER_REPORT,
  publisherArgumentText,
  publisherSelection,
  publisherSubject,
  resolvePublishers,
} from '../../../../../src/core/api/requests/publisher-list';

const A = '653e5ee6b140b03fae04134988786fe5';
const B = '089ff7bee9730601caec5cca961a3cbe';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e.problems.map((p) => p.message);
    throw e;
  }
  throw new Error('no problem found');
}

describe('publisherSelection', () => {
  it('keeps one ID as one publisher, checked later with the other arguments as before', () => {
    expect(publisherSelection(A)).toEqual({ type: 'one', id: A });
    expect(publisherSelection('not an id')).toEqual({ type: 'one', id: 'not an id' });
  });

  it('takes "all" in any case and a comma list, trimmed', () => {
    expect(publisherSelection(' ALL ')).toEqual({ type: 'all' });
    expect(publisherSelection(`${A}, ${B}`)).toEqual({ type: 'list', ids: [A, B] });
  });

  it.each([
    ['an empty item', `${A},,${B}`, /^entityId: item 2 of 3 is empty: separate publisher IDs with single commas/],
    ['a trailing comma', `${A},`, /^entityId: item 2 of 2 is empty/],
    ['a duplicate', `${A},${B},${A}`, new RegExp(`^entityId: '${A}' is listed twice`)],
    ['"all" with IDs', `all,${A}`, /^entityId: "all" cannot be combined with publisher IDs: give "all" alone, or only IDs/],
    ['an ID with a space', `${A},ab cd`, /^entityId: 'ab cd' must not contain spaces/],
    ['a formula', `${A},=HYPERLINK("x")`, /^entityId: '=HYPERLINK\("x"\)' is not a publisher ID/],
  ])('refuses %s, naming entityId and the rule', (_what, text, rule) => {
    expect(problemsOf(() => publisherSelection(text))).toEqual([expect.stringMatching(rule)]);
  });

  it(`refuses more than ${MAX_PUBLISHERS_PER_REPORT} publishers`, () => {
    const ids = Array.from({ length: MAX_PUBLISHERS_PER_REPORT + 1 }, (_, i) => `p${i}`);
    expect(problemsOf(() => publisherSelection(ids.join(',')))).toEqual([
      `entityId: lists ${MAX_PUBLISHERS_PER_REPORT + 1} publishers; a report covers at most ${MAX_PUBLISHERS_PER_REPORT}`,
    ]);
    expect(publisherSelection(ids.slice(1).join(','))).toMatchObject({ type: 'list' });
  });
});

describe('publisherArgumentText (a formula range)', () => {
  it('joins the text cells of a range, skipping empty cells, and takes numbers as digits', () => {
    expect(publisherArgumentText([[A], [''], [B], [12345]])).toBe(`${A},${B},12345`);
    expect(publisherArgumentText([['all']])).toBe('all');
  });

  it.each([
    ['a date', new Date('2026-11-01T00:00:00Z'), /^entityId: cell 2 of the range holds a date: publisher IDs are text/],
    ['a boolean', true, /^entityId: cell 2 of the range holds the boolean TRUE: publisher IDs are text/],
  ])('refuses a range holding %s, naming its cell', (_what, cell, rule) => {
    expect(problemsOf(() => publisherArgumentText([[A], [cell]]))).toEqual([expect.stringMatching(rule)]);
  });
});

describe('resolvePublishers', () => {
  const entries = [
    { id: B, name: 'Gotham Gazette' },
    { id: A, name: 'Daily Planet' },
    { id: 'bad id', name: 'Not an ID' },
  ];

  it('names a list in its own order, leaving the name of an ID the lookup does not list empty', () => {
    expect(resolvePublishers({ type: 'list', ids: [B, 'group-1'] }, entries)).toEqual([
      { id: B, name: 'Gotham Gazette' },
      { id: 'group-1', name: '' },
    ]);
  });

  it('takes every listed publisher for "all", by name, and refuses none or too many', () => {
    expect(resolvePublishers({ type: 'all' }, entries)).toEqual([
      { id: A, name: 'Daily Planet' },
      { id: B, name: 'Gotham Gazette' },
    ]);
    expect(problemsOf(() => resolvePublishers({ type: 'all' }, []))).toEqual([
      expect.stringMatching(/^entityId: "all" found no publisher/),
    ]);
    const many = Array.from({ length: MAX_PUBLISHERS_PER_REPORT + 5 }, (_, i) => ({ id: `p${i}`, name: `P${i}` }));
    expect(problemsOf(() => resolvePublishers({ type: 'all' }, many))).toEqual([
      `entityId: "all" is ${MAX_PUBLISHERS_PER_REPORT + 5} publishers; a report covers at most ${MAX_PUBLISHERS_PER_REPORT}: list the IDs of the publishers you need`,
    ]);
  });

  it('names a publisher in messages by name and ID, control characters made visible', () => {
    expect(publisherSubject({ id: A, name: 'Daily Planet' })).toBe(`Publisher 'Daily Planet' (${A})`);
    expect(publisherSubject({ id: A, name: 'a\u0007b' })).toBe(`Publisher 'a\\u0007b' (${A})`);
    expect(publisherSubject({ id: 'group-1', name: '' })).toBe('Publisher group-1');
  });
});
