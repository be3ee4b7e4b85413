import { checkNameFree, freeName } from '../../../../../src/core/schedules/saved/report-names';

const OWNER = 'u-owner';
const reports = [
  { id: 'a', ownerId: OWNER, name: 'Daily Planet: General last 7 days by day, into Engage report' },
  { id: 'b', ownerId: OWNER, name: 'Weekly revenue' },
  { id: 'c', ownerId: 'u-editor', name: 'Their revenue' },
];

describe('checkNameFree', () => {
  it('refuses a name another of the owner’s saved reports has, by the Name field, in any case and spacing', () => {
    const refused = 'Name: “weekly  REVENUE” is already used by another saved report; choose another';
    expect(() => checkNameFree('weekly  REVENUE', reports, OWNER)).toThrow(refused);
    try {
      checkNameFree('Weekly revenue', reports, OWNER);
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'name' });
    }
    expect.assertions(2);
  });

  it('takes a name only other editors use, or a new one', () => {
    expect(() => checkNameFree('Their revenue', reports, OWNER)).not.toThrow();
    expect(() => checkNameFree('Monthly revenue', reports, OWNER)).not.toThrow();
    expect(() => checkNameFree('Weekly revenue', reports, null)).not.toThrow();
  });

  it('lets a changed report keep its own name, and refuses it another’s', () => {
    expect(() => checkNameFree('Weekly revenue', reports, OWNER, reports[1])).not.toThrow();
    expect(() => checkNameFree('WEEKLY revenue', reports, OWNER, reports[1])).not.toThrow();
    expect(() => checkNameFree('Weekly revenue', reports, OWNER, reports[0])).toThrow(/^Name: “Weekly revenue” is already used/);
  });

  it('lets a report keep a name it shared before names had to differ', () => {
    const shared = [...reports, { id: 'd', ownerId: OWNER, name: 'Weekly revenue' }];
    expect(() => checkNameFree('Weekly revenue', shared, OWNER, shared[3])).not.toThrow();
  });
});

describe('freeName', () => {
  it('keeps a name no report has', () => {
    expect(freeName('Gotham Gazette: General yesterday by day, into Engage report', ['Weekly revenue'])).toBe(
      'Gotham Gazette: General yesterday by day, into Engage report',
    );
  });

  it('numbers a name already taken with the first number free', () => {
    const base = 'Daily Planet: General last 7 days by day, into Engage report';
    expect(freeName(base, [base])).toBe(`${base} (2)`);
    expect(freeName(base, [base.toUpperCase(), `${base} (2)`, `${base} (4)`])).toBe(`${base} (3)`);
  });

  it('stays within the 100 characters a name takes, number included', () => {
    const long = `${'x'.repeat(99)}y`;
    expect(freeName(`${long} and more`, [])).toBe(long);
    const numbered = freeName(long, [long]);
    expect(numbered).toBe(`${'x'.repeat(96)} (2)`);
    expect(numbered).toHaveLength(100);
  });
});
