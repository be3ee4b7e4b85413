/**
 * Browser test of the report builder as a daily user reads it in the playground's 300 px sidebar:
 * a filter row's field, operator and value each show their whole text; and one time zone, always
 * labelled: the period's days are called UTC days (the builder's and the schedule's alike), one line
 * says why and where a UTC day starts on the spreadsheet's clock, and times are named with the
 * spreadsheet's zone. Then the checks before sending: a filter row offers only its field's operators,
 * Custom starts from the preset's days, and reversed days name the field while the formula box stays quiet.
 */
import { chooseBreakdowns, eventually, measureControl, openPlayground, type BrowserPlayground } from '../support/browser';

jest.setTimeout(120_000);

let b: BrowserPlayground;

beforeAll(async () => {
  b = await openPlayground();
  const { sidebar } = b;
  await eventually(async () => expect(await sidebar.locator('#sign-in-username').inputValue()).toBe('demo@engage.example'));
  await sidebar.locator('#sign-in-submit').click();
  await eventually(async () => expect(await sidebar.locator('#report-publisher option').count()).toBe(3 + 2)); // and All, Several
});
afterAll(async () => {
  await b?.close();
});

/** "01:00" in winter: where today's UTC midnight falls on the Europe/Berlin clock. */
function berlinClockAtUtcMidnight(): string {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    midnight,
  );
}

it('shows a filter row’s field, operator and value whole, each on its own, in a 300 px sidebar', async () => {
  const { sidebar } = b;
  expect(await sidebar.locator('html').evaluate((html) => html.clientWidth)).toBeLessThanOrEqual(300);
  await chooseBreakdowns(sidebar, ['day', 'country']);
  await sidebar.locator('#filter-add').click();
  const row = sidebar.locator('.filter-row').first();
  await row.locator('.filter-field').selectOption('country.name');
  await row.locator('.filter-operator').selectOption('not_contains');
  await row.locator('.filter-value').fill('United Kingdom');
  await eventually(async () =>
    expect(await sidebar.locator('#filter-text').innerText()).toBe('Filter: country.name:not_contains:United Kingdom'),
  );

  const field = await measureControl(row.locator('.filter-field'));
  const operator = await measureControl(row.locator('.filter-operator'));
  const value = await measureControl(row.locator('.filter-value'));
  expect([field.text, operator.text, value.text]).toEqual(['country.name', 'does not contain', 'United Kingdom']);
  for (const control of [field, operator, value]) {
    expect(control.textWidth).toBeLessThanOrEqual(control.room);
    expect(control.left).toBeGreaterThanOrEqual(0);
    expect(control.right).toBeLessThanOrEqual(control.viewport);
  }
  // The widest field name the rows offer fits too.
  await row.locator('.filter-field').selectOption('paidViewabilityRate');
  const widest = await measureControl(row.locator('.filter-field'));
  expect(widest.textWidth).toBeLessThanOrEqual(widest.room);
});

it('calls the period’s days UTC days, and says once why, with where a UTC day starts on the spreadsheet’s clock', async () => {
  const { sidebar } = b;
  await sidebar.locator('#report-preset').selectOption('last7');
  await eventually(async () =>
    expect(await sidebar.locator('#report-period').innerText()).toMatch(/^Last 7 days: \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d \(UTC days\)$/),
  );
  const clock = berlinClockAtUtcMidnight();
  expect(await sidebar.locator('#report-days-note').innerText()).toBe(
    `Report days are UTC days, as Engage counts them: each runs from ${clock} to ${clock} in Europe/Berlin, the spreadsheet's time zone, in which this sidebar shows every time.`,
  );
  // Said once: no other line of the tab repeats it.
  expect((await sidebar.locator('#panel-report').innerText()).match(/Report days are UTC days/g)).toHaveLength(1);

  // A custom range is UTC days too.
  await sidebar.locator('#report-preset').selectOption('custom');
  await sidebar.locator('#report-from').fill('2026-11-01');
  await sidebar.locator('#report-to').fill('2026-11-07');
  await sidebar.locator('#report-to').dispatchEvent('change');
  await eventually(async () => expect(await sidebar.locator('#report-period').innerText()).toBe('2026-11-01 to 2026-11-07 (UTC days)'));

  // An hourly window is in UTC hours, as Engage takes them, and shown on the spreadsheet's clock too.
  await sidebar.locator('label[for="report-kind-realtime"]').click();
  const line = sidebar.locator('#report-period');
  await eventually(async () => expect(await line.innerText()).toMatch(/^Last 24 hours: /));
  const [, from, to] = /^Last 24 hours: (\S+ \d\d:00) to (\S+ \d\d:00) UTC \(end excluded\), that is /.exec(await line.innerText())!;
  const berlin = (utc: string) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'short' }).format(
      Date.parse(`${utc!.replace(' ', 'T')}:00Z`),
    );
  expect(await line.innerText()).toBe(
    `Last 24 hours: ${from} to ${to} UTC (end excluded), that is ${berlin(from!)} to ${berlin(to!)} in Europe/Berlin`,
  );
  await sidebar.locator('label[for="report-kind-main"]').click();

  // The schedule's period says the same, and its hours are on the spreadsheet's clock, named.
  await sidebar.locator('#report-preset').selectOption('last7');
  await sidebar.locator('#save-schedule').click();
  await eventually(async () => expect(await sidebar.locator('#schedule-period').innerText()).toBe('the 7 days before today (UTC days).'));
  expect(await sidebar.locator('#schedule-form .schedule-fields .hint').first().innerText()).toBe(
    'On the spreadsheet’s clock (Europe/Berlin); the hourly trigger runs once within each hour.',
  );
  await sidebar.locator('#schedule-cancel').click();
});

it('names the zone of the sign-in’s end on the Account tab', async () => {
  const { sidebar } = b;
  await sidebar.locator('#tab-account').click();
  await eventually(async () =>
    expect(await sidebar.locator('#session-summary').innerText()).toMatch(
      /^As demo@engage\.example · token from today · ends \d{4}-\d\d-\d\d \d\d:\d\d \(Europe\/Berlin\)$/,
    ),
  );
});

describe('checks before sending, in the 300 px sidebar (issue 23)', () => {
  const operators = async (row: ReturnType<BrowserPlayground['sidebar']['locator']>) =>
    row.locator('.filter-operator option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));

  beforeAll(async () => {
    await b.sidebar.locator('#tab-report').click();
    await b.sidebar.locator('label[for="report-kind-main"]').click();
  });

  it('offers a filter row only the operators its field’s type takes, and says why a value does not fit', async () => {
    const { sidebar } = b;
    await chooseBreakdowns(sidebar, ['day', 'country']);
    while ((await sidebar.locator('#filter-rows .filter-row').count()) > 0)
      await sidebar.locator('#filter-rows button[aria-label="Remove filter"]').first().click();
    await sidebar.locator('#filter-add').click();
    const row = sidebar.locator('.filter-row').first();
    // A new row waits for its value: no "enter a value" before anything is typed, nor an outline.
    expect(await sidebar.locator('#filter-text').innerText()).toBe('');
    expect(await row.locator('.filter-value').getAttribute('aria-invalid')).toBe('false');
    // The example in the value follows the operator: two numbers for between.
    await row.locator('.filter-field').selectOption('revenue');
    await row.locator('.filter-operator').selectOption('gt');
    expect(await row.locator('.filter-value').getAttribute('placeholder')).toBe('100');
    await row.locator('.filter-operator').selectOption('between');
    expect(await row.locator('.filter-value').getAttribute('placeholder')).toBe('100,200');
    // Left empty, it says so.
    await row.locator('.filter-value').blur();
    await eventually(async () => expect(await sidebar.locator('#filter-text').innerText()).toBe('revenue: enter a value'));
    expect(await row.locator('.filter-value').getAttribute('aria-invalid')).toBe('true');
    const offered: Record<string, string[]> = {};
    for (const field of ['revenue', 'day', 'country.id', 'country.name']) {
      await row.locator('.filter-field').selectOption(field);
      offered[field] = await operators(row);
    }
    expect(offered).toEqual({
      revenue: ['eq', 'gt', 'lt', 'between', 'in', 'not_in'],
      day: ['eq', 'gt', 'lt', 'between', 'in', 'not_in'],
      'country.id': ['in', 'not_in'],
      'country.name': ['in', 'not_in', 'contains', 'not_contains'],
    });
    // A field of another type starts on an operator it takes; a value of the wrong kind is named before anything is sent.
    await row.locator('.filter-field').selectOption('revenue');
    await row.locator('.filter-operator').selectOption('gt');
    await row.locator('.filter-field').selectOption('country.name');
    expect(await row.locator('.filter-operator').inputValue()).toBe('contains');
    await row.locator('.filter-field').selectOption('revenue');
    expect(await row.locator('.filter-operator').inputValue()).toBe('gt');
    await row.locator('.filter-operator').selectOption('in');
    await row.locator('.filter-value').fill('10,abc');
    await eventually(async () =>
      expect(await sidebar.locator('#filter-text').innerText()).toBe(`revenue is a number and 'abc' is not, as in "revenue:in:10,20"`),
    );
    const op = await measureControl(row.locator('.filter-operator'));
    expect(op.right).toBeLessThanOrEqual(op.viewport);
    await sidebar.locator('#filter-rows button[aria-label="Remove filter"]').click();
  });

  it('starts Custom from the preset’s days; reversed days name To and From, and the formula box shows no sentence', async () => {
    const { sidebar } = b;
    await sidebar.locator('#report-preset').selectOption('last7');
    const [, first, last] = /^Last 7 days: (\S+) to (\S+) \(UTC days\)$/.exec(await sidebar.locator('#report-period').innerText())!;
    await sidebar.locator('#report-preset').selectOption('custom');
    expect([await sidebar.locator('#report-from').inputValue(), await sidebar.locator('#report-to').inputValue()]).toEqual([first, last]);

    const details = sidebar.locator('#formula-details');
    const wasOpen = await details.evaluate((d) => (d as unknown as { open: boolean }).open);
    await details.evaluate((d) => {
      (d as unknown as { open: boolean }).open = true;
    });
    await sidebar.locator('#report-to').fill('2026-11-01');
    await sidebar.locator('#report-from').fill('2026-11-07');
    await sidebar.locator('#report-from').dispatchEvent('change');
    await eventually(async () =>
      expect(await sidebar.locator('#report-period').innerText()).toBe('To: the last day (2026-11-01) is before From (2026-11-07).'),
    );
    // An error, not a hint: in the errors' red, To outlined and read with it.
    const red = await sidebar.locator('#report-period').evaluate((n) => n.ownerDocument.defaultView!.getComputedStyle(n).color);
    expect(red).toBe('rgb(217, 48, 37)');
    expect(await sidebar.locator('#report-to').getAttribute('aria-invalid')).toBe('true');
    expect(await sidebar.locator('#report-to').getAttribute('aria-describedby')).toBe('report-period');
    expect(await sidebar.locator('#report-from').getAttribute('aria-invalid')).toBeNull();
    expect(await sidebar.locator('#formula-preview').isVisible()).toBe(false);
    expect(await sidebar.locator('#formula-details').innerText()).not.toContain('is before');
    expect(await sidebar.locator('#formula-none').innerText()).toBe('No formula until the form is complete.');
    expect(await sidebar.locator('#formula-details button.copy').isVisible()).toBe(false);
    const note = await sidebar.locator('#formula-none').evaluate((n) => n.ownerDocument.defaultView!.getComputedStyle(n).color);
    const code = await sidebar.locator('#report-days-note').evaluate((n) => n.ownerDocument.defaultView!.getComputedStyle(n).color);
    expect(note).toBe(code); // the muted colour of hints

    await sidebar.locator('#report-preset').selectOption('last7');
    await eventually(async () => expect(await sidebar.locator('#formula-preview').innerText()).toMatch(/^=ENGAGE_REPORT\(/));
    expect(await sidebar.locator('#report-period').getAttribute('class')).toBe('hint');
    expect(await sidebar.locator('#formula-none').isVisible()).toBe(false);

    // An hourly report's custom window starts at the preset's first hour.
    await sidebar.locator('label[for="report-kind-realtime"]').click();
    await eventually(async () => expect(await sidebar.locator('#report-period').innerText()).toMatch(/^Last 24 hours: /));
    const [, hour] = /^Last 24 hours: (\S+ \d\d):00 /.exec(await sidebar.locator('#report-period').innerText())!;
    await sidebar.locator('#report-preset').selectOption('custom');
    expect(await sidebar.locator('#report-start').inputValue()).toBe(`${hour!.replace(' ', 'T')}:00`);
    await sidebar.locator('label[for="report-kind-main"]').click();
    await details.evaluate((d, open) => {
      (d as unknown as { open: boolean }).open = open;
    }, wasOpen);
  });
});
