/**
 * The README's custom-function examples, each typed into a cell of the built add-on in the local host
 * against the emulator, both on today's real clock (no virtual clock, no pinned emulator day), as a
 * reader tries them: the examples' dates are days relative to today ("7daysAgo", "yesterday"), never
 * TODAY(), so they give what the Output column says on any day and in both readings of the host. The
 * spreadsheet is in Europe/Berlin (at or ahead of UTC), where the realtime example's "yesterday" is
 * inside the last 48 hours at every hour. README's table of what each rolling preset becomes is the
 * builder's.
 */
import { ROLLING_PRESET_DAYS } from '../../src/core/builder/date-presets';
import fs from 'node:fs';
import path from 'node:path';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { DEMO_API_KEY } from '../support/emulator';
import { repoRoot } from '../support/paths';

const SHEETS = Array.from({ length: 12 }, (_, i) => `S${i}`);
let h: AddonHarness;
let nextSheet = 0;

beforeAll(async () => {
  h = await startAddon({ maxColumns: 60, maxRows: 1000, sheets: SHEETS });
  const emulatorNow = Date.parse(await h.emulator.now());
  // Both clocks are the machine's: the emulator's is not pinned to a demo day.
  expect(Math.abs(emulatorNow - Date.now())).toBeLessThan(60_000);
  expect(Math.abs(h.host.now().getTime() - Date.now())).toBeLessThan(60_000);
  h.signIn();
  // ENGAGE_RECOMMENDATIONS uses the API key from the settings, not the sign-in.
  h.host.call('saveSettings', [{ apiKey: DEMO_API_KEY.key }], { user: OWNER });
});
afterAll(async () => {
  await h.close();
});

/** Types the formula into A1 of a sheet of its own (results spill) and evaluates it. */
function formula(text: string) {
  return h.host.evaluateFormula(SHEETS[nextSheet++]!, 'A1', text, { user: OWNER });
}

interface ReadmeExample {
  formula: string;
  /** Header cells README names before its "…": the table must start with exactly these. */
  leading: string[];
  /** Header cells README names after its "…": the table must have them too. */
  later: string[];
  rows?: number;
  totals: boolean;
}

const names = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The custom-function table of README.md: each example formula and what its Output column promises. */
function readmeExamples(): ReadmeExample[] {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  return readme
    .split('\n')
    .filter((line) => line.startsWith('| `ENGAGE_'))
    .map((line) => {
      const [, exampleCell, output] = line
        .replace(/\s*\|\s*$/, '')
        .split(' | ')
        .map((c) => c.trim());
      const [before, after = ''] = output!.split(';')[0]!.split('…');
      const rows = output!.match(/; (\d+) rows/);
      const example: ReadmeExample = {
        formula: exampleCell!.replace(/^`|`$/g, ''),
        leading: names(before!),
        later: names(after),
        totals: output!.includes('`Total` row'),
      };
      if (rows) example.rows = Number(rows[1]);
      return example;
    });
}

describe('README custom-function examples', () => {
  const examples = readmeExamples();

  it('lists all ten custom functions', () => {
    expect([...new Set(examples.map((e) => e.formula.match(/^=(\w+)\(/)?.[1]))].sort()).toEqual([
      'ENGAGE_COMPARE',
      'ENGAGE_COUNTRIES',
      'ENGAGE_EXTERNALID_REPORT',
      'ENGAGE_NATIVEAPPS',
      'ENGAGE_PUBLISHERS',
      'ENGAGE_REALTIME_REPORT',
      'ENGAGE_RECOMMENDATIONS',
      'ENGAGE_REPORT',
      'ENGAGE_TIMEZONES',
      'ENGAGE_WIDGETS',
    ]);
  });

  it('passes no TODAY() (nor any built-in function) as an argument: Google does not promise a custom function may take it', () => {
    for (const e of examples) expect([e.formula, /TODAY\(|NOW\(|TEXT\(/i.test(e.formula)]).toEqual([e.formula, false]);
  });

  it('says what each rolling preset becomes in an inserted formula, as the builder writes it', () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('| preset | `fromDate`, `toDate` |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const written = rows.flatMap((row) => [...row.split(' | ')[1]!.matchAll(/`"([^"]+)","([^"]+)"`/g)].map((m) => [m[1], m[2]]));
    const { today, yesterday, last7, last14, last30, thisMonth, lastMonth } = ROLLING_PRESET_DAYS;
    expect(written).toEqual([today, yesterday, last7, last14, last30, thisMonth, lastMonth].map((d) => [d.fromDate, d.toDate]));
  });

  it('uses no fixed date in a report example: each works on the day it is read', () => {
    for (const e of examples.filter((x) => /_(REPORT|COMPARE)\(/.test(x.formula)))
      expect([e.formula, /"\d{8}|"\d{4}-\d\d-\d\d"/.test(e.formula)]).toEqual([e.formula, false]);
  });

  it.each(examples.map((e) => [e.formula, e] as const))('%s gives what README says', (_f, example) => {
    const result = formula(example.formula);
    expect(result.error).toBeUndefined();
    const values = result.values!;
    const header = values[0] as string[];
    expect(header.slice(0, example.leading.length)).toEqual(example.leading);
    expect(header).toEqual(expect.arrayContaining(example.later));
    if (example.later.length > 0 && example.totals) expect(header[header.length - 1]).toBe(example.later[example.later.length - 1]);
    const bodyRows = values.length - 1 - (example.totals ? 1 : 0);
    if (example.rows !== undefined) expect(bodyRows).toBe(example.rows);
    // Under rows cut short by maxRows, the Total row says it sums the whole report.
    if (example.totals) expect(values[values.length - 1]![0]).toMatch(/^Total( of all [\d,]+ rows)?$/);
  });
});
