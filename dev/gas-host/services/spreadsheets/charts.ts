/**
 * Charts and embedded charts: the builder a Sheet's newChart() returns collects a chart's type, ranges,
 * position and options; the sheet records what insertChart is given (the host draws nothing).
 */
import type { ChartSpec } from '../../protocol/protocol';
import { fromRealm, type Facade, type FacadeKit } from '../kit';

const CHART_TYPES = {
  AREA: 'AREA',
  BAR: 'BAR',
  COLUMN: 'COLUMN',
  COMBO: 'COMBO',
  LINE: 'LINE',
  PIE: 'PIE',
  SCATTER: 'SCATTER',
  TABLE: 'TABLE',
  TIMELINE: 'TIMELINE',
};

export interface ChartFacades {
  /** The `Charts` global: its enums only. */
  Charts: { ChartType: typeof CHART_TYPES };
  chart(spec: ChartSpec): Facade;
  builder(): Facade;
}

export function chartFacades(kit: FacadeKit): ChartFacades {
  const chart = (spec: ChartSpec) =>
    kit.api('EmbeddedChart', {
      getChartId: () => spec.id ?? null,
      getType: () => spec.type,
      getRanges: () => spec.ranges.slice(),
      getOptions: () => kit.api('ChartOptions', { get: (key: string) => spec.options[key] ?? null }),
      // The sheet's insertChart reads the spec back from this hook.
      __spec: spec,
    });

  const builder = () => {
    const spec: ChartSpec = { type: 'LINE', ranges: [], position: undefined, options: {} };
    const self: Facade = kit.api('EmbeddedChartBuilder', {
      setChartType: (type: string) => ((spec.type = String(type)), self),
      asLineChart: () => ((spec.type = 'LINE'), self),
      asColumnChart: () => ((spec.type = 'COLUMN'), self),
      asBarChart: () => ((spec.type = 'BAR'), self),
      asPieChart: () => ((spec.type = 'PIE'), self),
      addRange: (range: { getA1Notation(): string; getSheet(): { getName(): string } }) => {
        spec.ranges.push(`${range.getSheet().getName()}!${range.getA1Notation()}`);
        return self;
      },
      setPosition: (row: number, column: number) => ((spec.position = { row: Number(row), column: Number(column) }), self),
      setOption: (key: string, value: unknown) => ((spec.options[String(key)] = fromRealm(value)), self),
      build: () => chart({ ...spec, ranges: spec.ranges.slice(), options: { ...spec.options } }),
    });
    return self;
  };

  return { Charts: { ChartType: CHART_TYPES }, chart, builder };
}
