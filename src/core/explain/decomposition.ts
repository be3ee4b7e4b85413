/**
 * The exact split of a metric's change between two periods by key (a widget, a platform and
 * country, a publisher): what each key's part of the change of the whole is, largest first, then one
 * Other part for the keys past the top ones, then the Total. Pure arithmetic on figures already
 * fetched, so the formula, the sidebar and an alert's notice can all ask it the same question.
 *
 * - An additive metric (revenue, clicks, page views): a key's part is its own difference.
 * - A ratio metric (RPM, CTR: a numerator over a denominator that both add up): with w a key's share
 *   of the denominator, r its own ratio and R the whole's, the change of R is split into
 *     mix  = (w1 - w0) * ((r0 + r1) / 2 - (R0 + R1) / 2)   its share of the denominator moved
 *     rate = (r1 - r0) * (w0 + w1) / 2                      its own ratio moved
 *   symmetric (swapping the periods negates every figure) and exact: the keys' mix and rate add up
 *   to R1 - R0. A key's share growing adds to the whole only as far as its ratio is above the whole's
 *   average, hence the centring (the centre drops out of the sum, since the shares add up to 1 in
 *   each period). A key present in one period only, or with a zero denominator in one, takes the
 *   other period's ratio for the missing one in its mix (so a new key is all mix); what is left of its
 *   part is rate. When a whole period has no denominator (its ratio is taken as 0, as Engage reports
 *   it), there is no centre and every key's part is its own contribution.
 *
 * Exactness is the contract: the arithmetic ends in integer units of the metric's precision
 * (`decimals`). The Total is the change of the whole as the report gives it (Engage's own sums, as
 * ENGAGE_COMPARE shows them), which may differ from what the keys' rounded figures add up to by a
 * few units: that `residual` goes to the Other row (as rate: the denominators are counts, exact, so
 * rounding moves only numerators). The drivers' changes plus Other's equal the Total's change to the
 * last unit, and so do their mix and rate columns.
 */

/** How a metric adds up: on its own, or as numerator / denominator * factor. */
export type MetricShape = { kind: 'additive' } | { kind: 'ratio'; factor: number };

/** A key's figures in one period: for an additive metric, `numerator` is the value and `denominator` 1. */
export interface PeriodParts {
  numerator: number;
  denominator: number;
}

export interface KeyParts<K> {
  /** The caller's key, handed back in the drivers. */
  key: K;
  /** A stable text of the key: ties of equal effect are ordered by it. */
  id: string;
  earlier?: PeriodParts;
  current?: PeriodParts;
}

export interface DecompositionInput<K> {
  shape: MetricShape;
  keys: readonly KeyParts<K>[];
  /** The whole's figure in each period as the report gives it (its Total row). Left out: computed from the keys. */
  totals?: { earlier: number; current: number };
  /** Decimal places of the metric's figures: effects are exact to 10^-decimals. */
  decimals: number;
  /** Keys shown on their own; the rest make the Other row. */
  topN: number;
}

/** A part of the change, in the metric's unit, rounded to its decimals. `mix` and `rate` only for ratio metrics. */
export interface Effect {
  change: number;
  mix?: number;
  rate?: number;
}

export interface Driver<K> {
  key: K;
  effect: Effect;
}

export interface Decomposition<K> {
  /** The top keys, largest absolute change first. */
  drivers: Driver<K>[];
  /** The keys past topN together, and the residual. */
  other: Effect & { keys: number };
  /** The keys past topN, largest first. */
  others: K[];
  /** The whole's change: the drivers and Other add up to it exactly. */
  total: Effect;
  /** The whole's figure in each period, as given (or computed). */
  earlier: number;
  current: number;
  /** How much the report's totals differ from what the keys' figures add up to (in Other's change). */
  residual: number;
}

/** Half away from zero, so that a split and its mirror round alike. */
const roundUnits = (value: number, scale: number) => Math.sign(value) * Math.round(Math.abs(value) * scale);

interface KeyUnits<K> {
  parts: KeyParts<K>;
  change: number;
  mix: number;
  exact: number;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The ratio's whole in a period: factor * N / D, 0 without a denominator. */
function whole(keys: readonly KeyParts<unknown>[], which: 'earlier' | 'current', factor: number) {
  const n = sum(keys.map((k) => k[which]?.numerator ?? 0));
  const d = sum(keys.map((k) => k[which]?.denominator ?? 0));
  return { ratio: d > 0 ? (n / d) * factor : 0, denominator: d };
}

/** Each key's change and mix (real numbers) for a ratio metric; see the file's comment for the formulas. */
function ratioEffects<K>(keys: readonly KeyParts<K>[], factor: number): Array<{ change: number; mix: number }> {
  const before = whole(keys, 'earlier', factor);
  const after = whole(keys, 'current', factor);
  const centre = before.denominator > 0 && after.denominator > 0 ? (before.ratio + after.ratio) / 2 : 0;
  const share = (p: PeriodParts | undefined, d: number) => (d > 0 ? (p?.denominator ?? 0) / d : 0);
  const contribution = (p: PeriodParts | undefined, d: number) => (d > 0 ? ((p?.numerator ?? 0) / d) * factor : 0);
  const ownRatio = (p: PeriodParts | undefined) => (p && p.denominator > 0 ? (p.numerator / p.denominator) * factor : undefined);
  return keys.map((k) => {
    const w0 = share(k.earlier, before.denominator);
    const w1 = share(k.current, after.denominator);
    const change = contribution(k.current, after.denominator) - contribution(k.earlier, before.denominator) - (w1 - w0) * centre;
    const r0 = ownRatio(k.earlier);
    const r1 = ownRatio(k.current);
    const mean = r0 === undefined ? r1 : r1 === undefined ? r0 : (r0 + r1) / 2;
    return { change, mix: mean === undefined ? 0 : (w1 - w0) * (mean - centre) };
  });
}

/** Splits the change of the whole by key, exactly (see the file's comment). */
export function decomposeChange<K>(input: DecompositionInput<K>): Decomposition<K> {
  const { shape, keys, decimals } = input;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 10) throw new RangeError(`decimals must be 0 to 10, not ${decimals}`);
  if (!Number.isInteger(input.topN) || input.topN < 1) throw new RangeError(`topN must be a whole number of at least 1, not ${input.topN}`);
  const scale = 10 ** decimals;
  const ratio = shape.kind === 'ratio';
  let units: KeyUnits<K>[];
  if (shape.kind === 'ratio') {
    units = ratioEffects(keys, shape.factor).map((e, i) => {
      const change = roundUnits(e.change, scale);
      return { parts: keys[i]!, change, mix: roundUnits(e.mix, scale), exact: e.change };
    });
  } else {
    units = keys.map((k) => {
      const change = roundUnits(k.current?.numerator ?? 0, scale) - roundUnits(k.earlier?.numerator ?? 0, scale);
      return { parts: k, change, mix: 0, exact: change };
    });
  }
  const computed = (which: 'earlier' | 'current') =>
    shape.kind === 'ratio' ? whole(keys, which, shape.factor).ratio : sum(keys.map((k) => k[which]?.numerator ?? 0));
  const earlier = input.totals?.earlier ?? computed('earlier');
  const current = input.totals?.current ?? computed('current');
  const totalUnits = roundUnits(current, scale) - roundUnits(earlier, scale);
  const keysUnits = sum(units.map((u) => u.change));

  units.sort(
    (a, b) => Math.abs(b.change) - Math.abs(a.change) || Math.abs(b.exact) - Math.abs(a.exact) || compareText(a.parts.id, b.parts.id),
  );
  const top = units.slice(0, input.topN);
  const rest = units.slice(input.topN);
  const value = (u: number) => (u === 0 ? 0 : u / scale);
  const effect = (change: number, mix: number): Effect =>
    ratio ? { change: value(change), mix: value(mix), rate: value(change - mix) } : { change: value(change) };

  const otherChange = totalUnits - sum(top.map((u) => u.change));
  return {
    drivers: top.map((u) => ({ key: u.parts.key, effect: effect(u.change, u.mix) })),
    other: { ...effect(otherChange, sum(rest.map((u) => u.mix))), keys: rest.length },
    others: rest.map((u) => u.parts.key),
    total: effect(totalUnits, sum(units.map((u) => u.mix))),
    earlier,
    current,
    residual: value(totalUnits - keysUnits),
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
