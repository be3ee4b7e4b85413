/**
 * The split of a change by key, on hand-made cases whose answer is worked out by hand: a pure mix
 * shift, a pure rate change, a new key, a vanished key, zero denominators (a key's and a whole
 * period's), the report's totals differing from the rows by rounding, and topN's Other row. Every
 * case checks the contract: the drivers and Other add up to the Total's change exactly, in units of
 * the metric's precision, and so do their mix and rate columns.
 */
import { type Decomposition, decomposeChange, type DecompositionInput, type KeyParts } from '../../../../src/core/explain/decomposition';

const RPM = { kind: 'ratio', factor: 1000 } as const;

/** A key's parts: [numerator, denominator] in each period, undefined where it is absent. */
function key(id: string, earlier?: [number, number], current?: [number, number]): KeyParts<string> {
  const k: KeyParts<string> = { key: id, id };
  if (earlier) k.earlier = { numerator: earlier[0], denominator: earlier[1] };
  if (current) k.current = { numerator: current[0], denominator: current[1] };
  return k;
}

const units = (value: number | undefined, decimals: number) => Math.round((value ?? 0) * 10 ** decimals);

/** The contract on any decomposition: rows and Other add up to Total exactly, column by column. */
function expectExact(split: Decomposition<string>, decimals: number, ratio: boolean) {
  const rows = [...split.drivers.map((d) => d.effect), split.other];
  const total = (column: 'change' | 'mix' | 'rate') => rows.reduce((a, e) => a + units(e[column], decimals), 0);
  expect(total('change')).toBe(units(split.total.change, decimals));
  expect(units(split.total.change, decimals)).toBe(units(split.current, decimals) - units(split.earlier, decimals));
  if (ratio) {
    expect(total('mix')).toBe(units(split.total.mix, decimals));
    expect(total('rate')).toBe(units(split.total.rate, decimals));
    for (const e of rows) expect(units(e.mix, decimals) + units(e.rate, decimals)).toBe(units(e.change, decimals));
  }
}

function split(input: Partial<DecompositionInput<string>> & Pick<DecompositionInput<string>, 'keys'>) {
  const full: DecompositionInput<string> = { shape: RPM, decimals: 2, topN: 10, ...input };
  const result = decomposeChange(full);
  expectExact(result, full.decimals, full.shape.kind === 'ratio');
  return result;
}

const neg = (x: number) => (x === 0 ? 0 : -x);
const byKey = (s: Decomposition<string>) => Object.fromEntries(s.drivers.map((d) => [d.key, d.effect]));

describe('decomposeChange of a ratio metric (RPM: revenue / page views * 1000)', () => {
  it('puts a pure mix shift in mix: each key keeps its RPM, page views move to the dearer key', () => {
    // A: RPM 10, B: RPM 2. Shares 50/50 become 75/25: RPM 6 becomes 8, around an average of 7.
    const s = split({ keys: [key('A', [5, 500], [7.5, 750]), key('B', [1, 500], [0.5, 250])] });
    expect([s.earlier, s.current]).toEqual([6, 8]);
    // A gained a quarter of the views at 3 above the average, B lost a quarter at 5 below it.
    expect(byKey(s)).toEqual({ A: { change: 0.75, mix: 0.75, rate: 0 }, B: { change: 1.25, mix: 1.25, rate: 0 } });
    expect(s.total).toEqual({ change: 2, mix: 2, rate: 0 });
  });

  it('puts a pure rate change in rate: the shares stay, one key earns more per view', () => {
    // A: RPM 10 -> 14 on half the views; B stays at 2. RPM 6 becomes 8.
    const s = split({ keys: [key('A', [5, 500], [7, 500]), key('B', [1, 500], [1, 500])] });
    expect(s.drivers.map((d) => [d.key, d.effect])).toEqual([
      ['A', { change: 2, mix: 0, rate: 2 }],
      ['B', { change: 0, mix: 0, rate: 0 }],
    ]);
    expect(s.total).toEqual({ change: 2, mix: 0, rate: 2 });
  });

  it('makes a new key all mix, against the whole average', () => {
    // C (RPM 20) arrives with a third of the views; A and B keep their RPMs and views.
    const s = split({ keys: [key('A', [5, 500], [5, 500]), key('B', [1, 500], [1, 500]), key('C', undefined, [10, 500])] });
    expect([s.earlier, s.current]).toEqual([6, 16 / 1.5]);
    // Around the average (6 + 10.67) / 2 = 8.33: C's third at 20 is +3.89, A's and B's shares fell by a sixth.
    expect(byKey(s)).toEqual({
      C: { change: 3.89, mix: 3.89, rate: 0 },
      B: { change: 1.06, mix: 1.06, rate: 0 },
      A: { change: -0.28, mix: -0.28, rate: 0 },
    });
    expect(s.total.change).toBe(4.67);
  });

  it('makes a vanished key all mix too, the mirror of a new one', () => {
    const arrived = split({ keys: [key('A', [5, 500], [5, 500]), key('B', [1, 500], [1, 500]), key('C', undefined, [10, 500])] });
    const vanished = split({ keys: [key('A', [5, 500], [5, 500]), key('B', [1, 500], [1, 500]), key('C', [10, 500], undefined)] });
    // Swapping the periods negates every figure.
    expect(byKey(vanished)).toEqual(
      Object.fromEntries(
        Object.entries(byKey(arrived)).map(([k, e]) => [k, { change: neg(e.change), mix: neg(e.mix!), rate: neg(e.rate!) }]),
      ),
    );
    expect(byKey(vanished).C!.rate).toBe(0);
  });

  it("takes a key's revenue without page views as rate, and a period without any page views as 0", () => {
    // D earned 3 without a paid page view in the earlier period.
    const s = split({ keys: [key('A', [5, 500], [5, 500]), key('D', [3, 0], [1, 500])] });
    expect([s.earlier, s.current]).toEqual([16, 6]);
    // A whole period without a denominator: its RPM is 0 and every key's part is its contribution.
    const empty = split({ keys: [key('A', [0, 0], [5, 500]), key('B', undefined, [1, 500])] });
    expect([empty.earlier, empty.current]).toEqual([0, 6]);
    expect(byKey(empty)).toEqual({ A: { change: 5, mix: 5, rate: 0 }, B: { change: 1, mix: 1, rate: 0 } });
  });

  it("gives the Other row the keys past topN and the difference between the report's totals and its rows", () => {
    const keys = [
      key('A', [5, 500], [7, 500]),
      key('B', [1, 500], [1, 400]),
      key('C', [2, 300], [2.5, 300]),
      key('D', [1, 100], [0.8, 90]),
    ];
    const computed = split({ keys, topN: 2 });
    expect(computed.drivers.map((d) => d.key)).toEqual(['A', 'B']);
    expect(computed.others).toEqual(['C', 'D']);
    expect(computed.other.keys).toBe(2);
    // Engage's totals are rounded from unrounded revenue: 0.03 more than the rows make.
    const given = split({ keys, topN: 2, totals: { earlier: computed.earlier, current: computed.current + 0.03 } });
    expect(units(given.residual, 2)).toBe(3);
    expect(units(given.other.change, 2)).toBe(units(computed.other.change, 2) + 3);
    expect(units(given.other.mix, 2)).toBe(units(computed.other.mix, 2));
  });
});

describe('decomposeChange of an additive metric (revenue)', () => {
  const additive = { shape: { kind: 'additive' } as const, decimals: 2 };

  it("gives each key its own difference, largest first, a new and a vanished key's whole amount", () => {
    const s = split({
      ...additive,
      keys: [key('A', [100.1, 1], [90.05, 1]), key('B', [20, 1], [20.2, 1]), key('New', undefined, [3.33, 1]), key('Gone', [7.77, 1])],
    });
    expect(s.drivers.map((d) => [d.key, d.effect.change])).toEqual([
      ['A', -10.05],
      ['Gone', -7.77],
      ['New', 3.33],
      ['B', 0.2],
    ]);
    expect(s.total.change).toBe(-14.29);
    expect(s.drivers[0]!.effect.mix).toBeUndefined();
  });

  it('orders equal effects by key and sums thousands of cents exactly', () => {
    const keys = Array.from({ length: 3000 }, (_, i) => key(`k${String(i).padStart(4, '0')}`, [0.1 * (i % 7), 1], [0.1 * (i % 5), 1]));
    const s = split({ ...additive, keys, topN: 5 });
    expect(s.drivers.map((d) => d.key)).toEqual(['k0020', 'k0055', 'k0090', 'k0125', 'k0160']);
    expect(s.residual).toBe(0);
  });
});

describe('decomposeChange refuses', () => {
  it('a topN below 1 and decimals out of range', () => {
    expect(() => decomposeChange({ shape: RPM, keys: [], decimals: 2, topN: 0 })).toThrow(/topN/);
    expect(() => decomposeChange({ shape: RPM, keys: [], decimals: -1, topN: 1 })).toThrow(/decimals/);
  });
});
