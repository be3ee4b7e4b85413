/**
 * A report's BigQuery table, typed from the report before any row arrives (src/core/warehouse/
 * table-schema.ts), the check that an existing table fits it, and its rows as newline-delimited JSON
 * (table-rows.ts): the exact columns for a general report by day × doc and an hourly external-ID report,
 * the partitioning and clustering, and every refusal naming its column.
 */
import { planTable, tableFitProblem, type TableField } from '../../../../src/core/warehouse/table-schema';
import { asciiJson, dayLines, numericText, rowOf } from '../../../../src/core/warehouse/table-rows';
import { checkDestination } from '../../../../src/core/warehouse/destination';

const DESTINATION = checkDestination({ projectId: 'my-project-123', datasetId: 'engage', tableId: 'daily', location: 'US' });
const fieldsOf = (plan: ReturnType<typeof planTable>) => plan.columns.map(({ field }) => `${field.name} ${field.type} ${field.mode}`);

describe('planTable', () => {
  it('types a general report by day × doc: DATE day, the publisher, the doc as id and name, counts INT64, money NUMERIC, rates FLOAT64', () => {
    const plan = planTable({
      kind: 'main',
      breakdowns: ['day', 'doc'],
      metrics: ['paidPvs', 'revenue', 'rpmByPvs', 'paidCtrByPvs', 'videoPlays'],
    });
    expect(fieldsOf(plan)).toEqual([
      'day DATE REQUIRED',
      'publisher_id STRING REQUIRED',
      'doc_id STRING NULLABLE',
      'doc_name STRING NULLABLE',
      'paidPvs INT64 NULLABLE',
      'revenue NUMERIC NULLABLE',
      'rpmByPvs NUMERIC NULLABLE',
      'paidCtrByPvs FLOAT64 NULLABLE',
      'videoPlays INT64 NULLABLE',
    ]);
    expect(plan.timePartitioning).toEqual({ type: 'DAY', field: 'day' });
    expect(plan.clustering).toEqual({ fields: ['publisher_id', 'doc_id'] });
    // Each metric column carries its label and meaning, for whoever reads the table.
    expect(plan.columns.find((c) => c.field.name === 'rpmByPvs')!.field.description).toBe('RPM (page views): (revenue / paidPvs) * 1000');
  });

  it('types an hourly external-ID report: TIMESTAMP hour, partitioned by its day, clustered by publisher and external ID', () => {
    const plan = planTable({ kind: 'externalId', breakdowns: ['externalId', 'widget'], metrics: ['totalReqs', 'reqsPaidCtr', 'revenue'] });
    expect(fieldsOf(plan)).toEqual([
      'hour TIMESTAMP REQUIRED',
      'publisher_id STRING REQUIRED',
      'externalId STRING NULLABLE',
      'widget_id STRING NULLABLE',
      'widget_name STRING NULLABLE',
      'totalReqs INT64 NULLABLE',
      'reqsPaidCtr FLOAT64 NULLABLE',
      'revenue NUMERIC NULLABLE',
    ]);
    expect(plan.timePartitioning).toEqual({ type: 'DAY', field: 'hour' });
    expect(plan.clustering).toEqual({ fields: ['publisher_id', 'externalId'] });
  });

  it('gives a report of several publishers their names too, clusters by the first other breakdown, and takes "all" as every metric sent', () => {
    const plan = planTable({ kind: 'main', breakdowns: ['publisher', 'day', 'country'], metrics: 'all' });
    const names = plan.columns.map((c) => c.field.name);
    expect(names.slice(0, 5)).toEqual(['day', 'publisher_id', 'publisher_name', 'country_id', 'country_name']);
    // Without the widget breakdown the API sends page views, not requests.
    expect(names).toContain('paidPvs');
    expect(names).not.toContain('paidReqs');
    expect(plan.clustering).toEqual({ fields: ['publisher_id', 'country_id'] });
    expect(planTable({ kind: 'main', breakdowns: ['day'], metrics: ['revenue'] }).clustering).toEqual({ fields: ['publisher_id'] });
  });

  it('refuses the month breakdown and the realtime report, naming them', () => {
    expect(() => planTable({ kind: 'main', breakdowns: ['month', 'doc'], metrics: ['revenue'] })).toThrow(
      "breakdowns: 'month' cannot go to BigQuery: the table keeps one partition per day, so use the 'day' breakdown (a query sums days into months)",
    );
    expect(() => planTable({ kind: 'realtime', breakdowns: ['externalId'], metrics: ['revenue'] })).toThrow(
      /^report: the realtime report covers only the last 48 hours/,
    );
  });
});

describe('tableFitProblem', () => {
  const plan = planTable({ kind: 'main', breakdowns: ['day', 'doc'], metrics: ['paidPvs', 'revenue'] });
  // tables.get answers with the legacy type names.
  const existing: TableField[] = [
    { name: 'day', type: 'DATE', mode: 'REQUIRED' },
    { name: 'publisher_id', type: 'STRING', mode: 'REQUIRED' },
    { name: 'doc_id', type: 'STRING', mode: 'NULLABLE' },
    { name: 'doc_name', type: 'STRING', mode: 'NULLABLE' },
    { name: 'paidPvs', type: 'INTEGER', mode: 'NULLABLE' },
    { name: 'revenue', type: 'NUMERIC', mode: 'NULLABLE' },
  ];
  const partitioned = { type: 'DAY', field: 'day' };

  it('takes the table it would create, legacy type names included, and one with an extra NULLABLE column', () => {
    expect(tableFitProblem(plan, { fields: existing, timePartitioning: partitioned }, DESTINATION)).toBeUndefined();
    const extra = [...existing, { name: 'note', type: 'STRING', mode: 'NULLABLE' as const }];
    expect(tableFitProblem(plan, { fields: extra, timePartitioning: partitioned }, DESTINATION)).toBeUndefined();
  });

  it('names the column that is missing, of another type, REQUIRED where the report may leave it empty, or REQUIRED and not the report’s', () => {
    const without = existing.filter((f) => f.name !== 'doc_name');
    expect(tableFitProblem(plan, { fields: without, timePartitioning: partitioned }, DESTINATION)).toBe(
      "column 'doc_name': the table my-project-123.engage.daily has no such column, so it holds another report; choose a new table name for this report",
    );
    const floatRevenue = existing.map((f) => (f.name === 'revenue' ? { ...f, type: 'FLOAT' } : f));
    expect(tableFitProblem(plan, { fields: floatRevenue, timePartitioning: partitioned }, DESTINATION)).toBe(
      "column 'revenue' is FLOAT64 in the table my-project-123.engage.daily, but this report writes NUMERIC; choose a new table name for this report",
    );
    const requiredDoc = existing.map((f) => (f.name === 'doc_id' ? { ...f, mode: 'REQUIRED' as const } : f));
    expect(tableFitProblem(plan, { fields: requiredDoc, timePartitioning: partitioned }, DESTINATION)).toBe(
      "column 'doc_id' is REQUIRED in the table my-project-123.engage.daily, but this report may leave it empty",
    );
    const requiredExtra = [...existing, { name: 'region', type: 'STRING', mode: 'REQUIRED' as const }];
    expect(tableFitProblem(plan, { fields: requiredExtra, timePartitioning: partitioned }, DESTINATION)).toBe(
      "column 'region' is REQUIRED in the table my-project-123.engage.daily, but this report has no such column",
    );
  });

  it('refuses a table not partitioned by day on the time column', () => {
    const expected =
      "the table my-project-123.engage.daily is not partitioned by day on 'day', which each day's load replaces; choose a new table name for this report";
    expect(tableFitProblem(plan, { fields: existing }, DESTINATION)).toBe(expected);
    expect(tableFitProblem(plan, { fields: existing, timePartitioning: { type: 'MONTH', field: 'day' } }, DESTINATION)).toBe(expected);
  });
});

describe('rows as newline-delimited JSON', () => {
  const plan = planTable({ kind: 'main', breakdowns: ['day', 'doc'], metrics: ['paidPvs', 'revenue', 'paidCtrByPvs'] });

  it('writes each value in the form BigQuery loads: DATE dashed, ids as text, counts whole, money as a decimal string, rates as numbers, missing as null', () => {
    const item = {
      day: '20250131',
      doc: { id: 12345, name: 'Élan – “quoted”' },
      paidPvs: '1200',
      revenue: { value: 12.3456789012 },
      paidCtrByPvs: 0.25,
    };
    expect(rowOf(plan, item, { day: '20250131', publisherId: 'pub-1' }, 1)).toEqual({
      day: '2025-01-31',
      publisher_id: 'pub-1',
      doc_id: '12345',
      doc_name: 'Élan – “quoted”',
      paidPvs: 1200,
      revenue: '12.345678901',
      paidCtrByPvs: 0.25,
    });
    expect(rowOf(plan, { day: '20250131' }, { day: '20250131', publisherId: 'pub-1' }, 1)).toMatchObject({
      doc_id: null,
      paidPvs: null,
      revenue: null,
    });
  });

  it('keeps every line ASCII, so its length is its size in bytes, and BigQuery reads back the same text', () => {
    const [line] = dayLines(plan, [
      { items: [{ day: '20250131', doc: { id: 'd1', name: 'Zürich 数据 😀' } }], context: { day: '20250131', publisherId: 'p' } },
    ]);
    expect(line).toMatch(/^[\x20-\x7e]+$/);
    expect(line).toContain('Z\\u00fcrich \\u6570\\u636e \\ud83d\\ude00');
    expect(JSON.parse(line!).doc_name).toBe('Zürich 数据 😀');
    expect(asciiJson({ a: 'plain' })).toBe('{"a":"plain"}');
  });

  it('writes NUMERIC with at most 9 decimals and no trailing zeros', () => {
    expect([numericText(12), numericText(0.1 + 0.2), numericText(-0.0000000001), numericText(1234.5)]).toEqual([
      '12',
      '0.3',
      '0',
      '1234.5',
    ]);
  });

  it('writes the hour of an hourly report as a UTC TIMESTAMP, from the fetch or from the row, and refuses one off the day', () => {
    const hourly = planTable({ kind: 'externalId', breakdowns: ['externalId'], metrics: ['totalReqs'] });
    const context = { day: '20250131', publisherId: 'p', hourStartMs: Date.UTC(2025, 0, 31, 13) };
    expect(rowOf(hourly, { externalId: 'a', totalReqs: 3 }, context, 1)).toEqual({
      hour: '2025-01-31T13:00:00Z',
      publisher_id: 'p',
      externalId: 'a',
      totalReqs: 3,
    });
    expect(rowOf(hourly, { externalId: 'a', dateHour: '2025013107' }, context, 1).hour).toBe('2025-01-31T07:00:00Z');
    expect(() => rowOf(hourly, { externalId: 'a', hour: '2025020100' }, context, 4)).toThrow(
      "rows: row 4 of 2025-01-31, column 'hour': 2025-02-01T00:00:00Z is not on the day loaded",
    );
  });

  it('refuses, naming the row and column, a count that is not whole, a figure that is not a number, and a row of another day', () => {
    const context = { day: '20250131', publisherId: 'p' };
    expect(() => rowOf(plan, { day: '20250131', paidPvs: 1.5 }, context, 7)).toThrow(
      "rows: row 7 of 2025-01-31, column 'paidPvs': 1.5 is not a whole number, as a count must be",
    );
    expect(() => rowOf(plan, { day: '20250131', revenue: 'n/a' }, context, 2)).toThrow(
      "rows: row 2 of 2025-01-31, column 'revenue': 'n/a' is not a number",
    );
    expect(() => rowOf(plan, { day: '20250130' }, context, 1)).toThrow(
      "rows: row 1 of 2025-01-31, column 'day': the row is for 20250130, not the day loaded",
    );
  });

  it('takes the publisher of each row of a report of several publishers', () => {
    const several = planTable({ kind: 'main', breakdowns: ['publisher', 'day'], metrics: ['revenue'] });
    const row = rowOf(
      several,
      { day: '20250131', publisher: { id: 'pub-2', name: 'Daily Planet' }, revenue: 5 },
      { day: '20250131', publisherId: '' },
      1,
    );
    expect(row).toEqual({ day: '2025-01-31', publisher_id: 'pub-2', publisher_name: 'Daily Planet', revenue: '5' });
  });
});
