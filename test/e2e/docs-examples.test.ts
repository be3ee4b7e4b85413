/**
 * Every example formula of README.md and docs/ (each code span that starts with `=ENGAGE_NAME(` and holds
 * no "..." or "…"; `=ENGAGE_*` names the family), each typed into a cell of the built add-on in the local host against the emulator,
 * both on today's real clock (no virtual clock, no pinned emulator day), as a reader tries them. The
 * examples of docs/formulas.md's table of functions must give what its Output column says; every other
 * example must compute, without an error and without "Loading...". The examples' dates are days
 * relative to today ("7daysAgo", "yesterday"), never TODAY(), so they work on any day and in both
 * readings of the host. The spreadsheet is in Europe/Berlin (at or ahead of UTC), where the realtime
 * examples' "yesterday" is inside the last 48 hours at every hour. docs/formulas.md's table of what
 * each rolling preset becomes is the builder's.
 */
import { ROLLING_PRESET_DAYS } from '../../src/core/builder/date-presets';
import fs from 'node:fs';
import path from 'node:path';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { DEMO_API_KEY } from '../support/emulator';
import { repoRoot } from '../support/paths';

const SHEETS = Array.from({ length: 30 }, (_, i) => `S${i}`);
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

/** README.md and every page of docs/, by their path from the repository's root. */
function pages(): Map<string, string> {
  const files = [
    'README.md',
    ...fs
      .readdirSync(path.join(repoRoot, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return new Map(files.map((file) => [file, fs.readFileSync(path.join(repoRoot, file), 'utf8')]));
}
const formulasPage = () => fs.readFileSync(path.join(repoRoot, 'docs', 'formulas.md'), 'utf8');

/** Every example formula of README.md and docs/, once each, with the pages that show it. */
function allExamples(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [file, text] of pages())
    for (const m of text.matchAll(/`(=ENGAGE_[A-Z_]+\([^`]*)`/g)) {
      const formula = m[1]!;
      if (/\.\.\.|…/.test(formula)) continue; // a sketch (`=ENGAGE_REPORT(...)`), not an example
      found.set(formula, [...new Set([...(found.get(formula) ?? []), file])]);
    }
  return found;
}

interface ReadmeExample {
  formula: string;
  /** Header cells the Output column names before its "…": the table must start with exactly these. */
  leading: string[];
  /** Header cells the Output column names after its "…": the table must have them too. */
  later: string[];
  rows?: number;
  totals: boolean;
}

const names = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The table of functions in docs/formulas.md: each example formula and what its Output column promises. */
function readmeExamples(): ReadmeExample[] {
  return formulasPage()
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

describe('the example formulas of README.md and docs/', () => {
  const examples = readmeExamples();
  const everyExample = allExamples();
  const others = [...everyExample.entries()].filter(([f]) => !examples.some((e) => e.formula === f));

  it('lists all eleven custom functions', () => {
    expect([...new Set(examples.map((e) => e.formula.match(/^=(\w+)\(/)?.[1]))].sort()).toEqual([
      'ENGAGE_COMPARE',
      'ENGAGE_COUNTRIES',
      'ENGAGE_EXPLAIN',
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

  it('are found on the pages: the table of functions, and examples elsewhere in docs/ and README.md', () => {
    expect(examples.length).toBeGreaterThanOrEqual(12);
    expect(others.length).toBeGreaterThanOrEqual(5);
    expect(new Set(others.flatMap(([, files]) => files)).has('README.md')).toBe(true);
  });

  it('pass no TODAY() (nor any built-in function) as an argument: Google does not promise a custom function may take it', () => {
    for (const e of [...everyExample.keys()].map((formula) => ({ formula })))
      expect([e.formula, /TODAY\(|NOW\(|TEXT\(/i.test(e.formula)]).toEqual([e.formula, false]);
  });

  it('say what each rolling preset becomes in an inserted formula, as the builder writes it', () => {
    const readme = formulasPage();
    const table = readme.slice(readme.indexOf('| preset | `fromDate`, `toDate` |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const written = rows.flatMap((row) => [...row.split(' | ')[1]!.matchAll(/`"([^"]+)","([^"]+)"`/g)].map((m) => [m[1], m[2]]));
    const { today, yesterday, last7, last14, last30, thisMonth, lastMonth } = ROLLING_PRESET_DAYS;
    expect(written).toEqual([today, yesterday, last7, last14, last30, thisMonth, lastMonth].map((d) => [d.fromDate, d.toDate]));
  });

  it('uses no fixed date in a report example: each works on the day it is read', () => {
    for (const e of examples.filter((x) => /_(REPORT|COMPARE|EXPLAIN)\(/.test(x.formula)))
      expect([e.formula, /"\d{8}|"\d{4}-\d\d-\d\d"/.test(e.formula)]).toEqual([e.formula, false]);
  });

  it.each(examples.map((e) => [e.formula, e] as const))('%s gives what docs/formulas.md says', (_f, example) => {
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

  it.each(others.map(([formula, files]) => [formula, files.join(', ')] as const))('%s (%s) computes without an error', (text) => {
    const result = formula(text);
    expect({ error: result.error, loading: result.loading }).toEqual({ error: undefined, loading: undefined });
    expect(result.values.flat()).not.toContainEqual(expect.stringMatching(/^#(ERROR!|REF!|NAME\?|N\/A|VALUE!)/));
    expect(result.values.length).toBeGreaterThan(0);
  });
});
