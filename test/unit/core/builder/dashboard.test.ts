/**
 * The dashboard's layout (src/core/builder/dashboard.ts): for one publisher, a list and "all", every
 * formula is an ENGAGE_* call with rolling dates (relative days, no TODAY()) and the refresh cell last, every
 * result's box fits the 26 columns of a new sheet and collides with no label, no other result and no
 * chart (Sheets refuses to spill into cells that are not empty), and the title says whose figures and
 * which days they are. The publisher choice is checked before anything is sent.
 */
import { parseFormula } from '../../../../dev/gas-host/formulas/formula';
import type { PublisherSelection } from '../../../../src/core/api/requests/publisher-list';
import {
  CHART_DAYS,
  checkDashboardPublishers,
  dashboardInput,
  dashboardLayout,
  type DashboardLayout,
} from '../../../../src/core/builder/dashboard';
import { NEW_SHEET_COLUMNS } from '../../../../src/core/sheets/sheet-output';

const P = '653e5ee6b140b03fae04134988786fe5';
const G = '089ff7bee9730601caec5cca961a3cbe';
const NAMES = new Map([
  [P, 'Daily Planet'],
  [G, 'Gotham Gazette'],
]);
/** Sheets' default row height and column width, in pixels: what a chart covers of the grid. */
const ROW_PX = 21;
const COLUMN_PX = 100;
/** Rows below the anchor a growing result may reach: any, as far as the test is concerned. */
const GROWS = 10_000;

const selections: Array<[string, PublisherSelection]> = [
  ['one publisher', { type: 'one', id: P }],
  ['a list', { type: 'list', ids: [P, G] }],
  ['all', { type: 'all' }],
];
const layoutOf = (selection: PublisherSelection) => dashboardLayout({ selection, names: NAMES, refreshReference: 'EngageRefresh' });

interface Box {
  what: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
}
const overlaps = (a: Box, b: Box) => a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
const inside = (row: number, column: number, b: Box) => row >= b.top && row <= b.bottom && column >= b.left && column <= b.right;

function boxes(layout: DashboardLayout): Box[] {
  return [
    ...layout.blocks.map((b) => ({
      what: b.name,
      top: b.row,
      left: b.column,
      bottom: b.row + (b.maxRows ?? GROWS) - 1,
      right: b.column + b.header.length - 1,
    })),
    ...layout.charts.map((c) => ({
      what: `chart ${c.title}`,
      top: c.row,
      left: c.column,
      bottom: c.row + Math.ceil(c.heightPx / ROW_PX) - 1,
      right: c.column + Math.ceil(c.widthPx / COLUMN_PX) - 1,
    })),
  ];
}

describe.each(selections)('the dashboard of %s', (_name, selection) => {
  const layout = layoutOf(selection);

  it('fits a new sheet of 26 columns', () => {
    expect(layout.values.every((row) => row.length === NEW_SHEET_COLUMNS)).toBe(true);
    for (const box of boxes(layout)) expect([box.what, box.right <= NEW_SHEET_COLUMNS]).toEqual([box.what, true]);
  });

  it('lets no result spill into another, into a label or under a chart', () => {
    const all = boxes(layout);
    for (let i = 0; i < all.length; i++)
      for (let k = i + 1; k < all.length; k++)
        expect([all[i]!.what, all[k]!.what, overlaps(all[i]!, all[k]!)]).toEqual([all[i]!.what, all[k]!.what, false]);
    layout.values.forEach((row, r) => {
      row.forEach((text, c) => {
        if (text === '') return;
        for (const box of all) {
          const anchor = box.top === r + 1 && box.left === c + 1 && text.startsWith('=');
          if (!anchor) expect([text, box.what, inside(r + 1, c + 1, box)]).toEqual([text, box.what, false]);
        }
      });
    });
    // At most one result grows with the publishers, and nothing is below it.
    const growing = layout.blocks.filter((b) => b.maxRows === undefined);
    expect(growing.length).toBe(selection.type === 'one' ? 0 : 1);
  });

  it('builds every figure from an ENGAGE_* formula with rolling dates and the refresh cell last', () => {
    expect(layout.blocks.map((b) => b.name)).toEqual(['kpis', 'daily', 'countries', 'platforms', 'widgets']);
    for (const block of layout.blocks) {
      expect(layout.values[block.row - 1]![block.column - 1]).toBe(block.formula);
      const parsed = parseFormula(block.formula)!;
      expect(parsed.functionName).toMatch(/^ENGAGE_(REPORT|COMPARE)$/);
      expect(parsed.args.at(-1)).toEqual({ kind: 'name', name: 'EngageRefresh' });
      // The dates are relative days, "NdaysAgo" to "yesterday": no TODAY(), no expression at all.
      expect(parsed.args.filter((a) => a.kind === 'expression')).toHaveLength(0);
      expect(block.formula).not.toMatch(/TODAY\(/i);
      expect(parsed.args.slice(1, 3)).toEqual([
        { kind: 'literal', value: `${block.name === 'daily' ? CHART_DAYS : 7}daysAgo` },
        { kind: 'literal', value: 'yesterday' },
      ]);
      expect(parsed.args[0]).toEqual({
        kind: 'literal',
        value: selection.type === 'one' ? P : selection.type === 'all' ? 'all' : `${P},${G}`,
      });
    }
  });

  it('draws revenue and RPM by day from the daily block, RPM on the right axis', () => {
    const daily = layout.blocks.find((b) => b.name === 'daily')!;
    expect(daily.header).toEqual(['day', 'revenue', 'rpmByPvs']);
    expect(layout.charts).toHaveLength(1);
    const chart = layout.charts[0]!;
    const rows = `${daily.row}:${daily.row + CHART_DAYS}`;
    expect(chart.ranges).toEqual([`A${rows.replace(':', ':A')}`, `B${rows.replace(':', ':B')}`, `C${rows.replace(':', ':C')}`]);
    expect(chart.seriesAxes).toEqual([0, 1]);
  });
});

describe('what the dashboard says', () => {
  it('asks for the key figures of one publisher as ENGAGE_COMPARE of the last 7 days against the 7 before, the Total row alone', () => {
    const layout = layoutOf({ type: 'one', id: P });
    expect(layout.blocks[0]!.formula).toBe(
      `=ENGAGE_COMPARE("${P}","7daysAgo","yesterday","previous","day","revenue,rpmByPvs,totalPvs,paidCtrByPvs,viewabilityRate","","",0,"","",EngageRefresh)`,
    );
    expect(layout.blocks[0]!.maxRows).toBe(2);
    expect(layout.values[0]![0]).toBe('Engage dashboard: Daily Planet');
    expect(layout.values[1]![0]).toMatch(/the last 7 days before today against the 7 days before them.*UTC days/);
    expect(layout.blocks.map((b) => b.formula.match(/"([a-z,-]+)","(revenue[^"]*)"/)?.slice(1))).toEqual([
      ['day', 'revenue,rpmByPvs,totalPvs,paidCtrByPvs,viewabilityRate'],
      ['day', 'revenue,rpmByPvs'],
      ['country', 'revenue,rpmByPvs'],
      ['platform', 'revenue,rpmByPvs'],
      ['widget', 'revenue,reqsRpm'],
    ]);
  });

  it("adds several publishers together for the days, countries and platforms, and keeps each publisher's top widgets", () => {
    const layout = layoutOf({ type: 'list', ids: [P, G] });
    expect(layout.values[0]![0]).toBe('Engage dashboard: 2 publishers: Daily Planet, Gotham Gazette');
    const breakdowns = layout.blocks.slice(1).map((b) => parseFormula(b.formula)!.args[3]);
    expect(breakdowns).toEqual([
      { kind: 'literal', value: 'day,-publisher' },
      { kind: 'literal', value: 'country,-publisher' },
      { kind: 'literal', value: 'platform,-publisher' },
      { kind: 'literal', value: 'widget' },
    ]);
    expect(layout.blocks.find((b) => b.name === 'widgets')!.header.slice(0, 2)).toEqual(['publisher.id', 'publisher.name']);
    expect(layout.blocks[0]!.header.slice(0, 4)).toEqual(['publisher.id', 'publisher.name', 'day', 'day.previous']);
    expect(layoutOf({ type: 'all' }).values[0]![0]).toBe('Engage dashboard: All publishers');
  });

  it("writes publishers' names only after the title's words, so a name that looks like a formula never starts a cell", () => {
    const name = '=IMPORTXML("x")';
    const selections: PublisherSelection[] = [
      { type: 'one', id: P },
      { type: 'list', ids: [P, G] },
    ];
    for (const selection of selections) {
      const layout = dashboardLayout({ selection, names: new Map([[P, name]]), refreshReference: 'EngageRefresh' });
      const withName = layout.values.flat().filter((cell) => cell.includes(name));
      expect(withName).toEqual([layout.values[0]![0]]);
      expect(withName[0]).toMatch(/^Engage dashboard: /);
      expect(layout.charts[0]!.title).toMatch(/^Revenue and RPM by day: /);
    }
  });
});

describe('dashboardInput', () => {
  it('gives setValues each formula as it is and every label with the apostrophe that keeps it text', () => {
    const layout = dashboardLayout({ selection: { type: 'one', id: P }, names: new Map([[P, '1/2']]), refreshReference: 'EngageRefresh' });
    const input = dashboardInput(layout);
    const formulas = new Set(layout.blocks.map((b) => `${b.row}:${b.column}`));
    expect(input[0]![0]).toBe("'Engage dashboard: 1/2");
    for (const [r, row] of layout.values.entries()) {
      for (const [c, text] of row.entries()) {
        const expected = text === '' || formulas.has(`${r + 1}:${c + 1}`) ? text : `'${text}`;
        expect(input[r]![c]).toBe(expected);
      }
    }
    expect(layout.blocks.map((b) => input[b.row - 1]![b.column - 1]!.slice(0, 8))).toEqual(Array(layout.blocks.length).fill('=ENGAGE_'));
  });
});

describe('checkDashboardPublishers', () => {
  it.each([
    ['', /^entityId: is required: choose a publisher, several publishers, or all/],
    ['   ', /^entityId: is required/],
    [undefined, /^entityId: must be text/],
    [653, /^entityId: must be text/],
    ['653e5ee6 b140', /must not contain spaces/],
    ['=HYPERLINK("x")', /is not a publisher ID/],
    [`${P},,${G}`, /item 2 of 3 is empty/],
    [`all,${P}`, /"all" cannot be combined/],
  ])('refuses %p naming entityId and the rule', (value, rule) => {
    expect(() => checkDashboardPublishers(value)).toThrow(rule);
  });

  it('takes one ID, a list and "all"', () => {
    expect(checkDashboardPublishers(` ${P} `)).toEqual({ type: 'one', id: P });
    expect(checkDashboardPublishers(`${P}, ${G}`)).toEqual({ type: 'list', ids: [P, G] });
    expect(checkDashboardPublishers('ALL')).toEqual({ type: 'all' });
  });
});
