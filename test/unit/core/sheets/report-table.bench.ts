/**
 * Measures, in a fresh Node process (jest's workers are too noisy for timing), how long turning a
 * 100,000-row general report into table rows takes compared with JSON.parse of the same body.
 * Prints one JSON line: {"parseMs": ..., "tableMs": ...}, each the best of several runs.
 */
import { buildReportTable } from '../../../../src/core/sheets/report-table';

const ROWS = 100_000;
const items = Array.from({ length: ROWS }, (_, i) => ({
  day: `202611${String((i % 28) + 1).padStart(2, '0')}`,
  country: { id: `C${i % 200}`, name: `Country ${i % 200}` },
  revenue: i % 3 === 0 ? `${i},25` : i * 0.5,
  paidClicks: i,
  totalClicks: { value: i * 2 },
  rpmByPvs: 1.5,
  paidPvs: i,
}));
const body = JSON.stringify({ items, totalItems: ROWS });

let parseMs = Number.POSITIVE_INFINITY;
let tableMs = Number.POSITIVE_INFINITY;
for (let run = 0; run < 7; run++) {
  let t0 = performance.now();
  const parsed = JSON.parse(body) as { items: Record<string, unknown>[] };
  parseMs = Math.min(parseMs, performance.now() - t0);
  t0 = performance.now();
  const table = buildReportTable(parsed.items, { kind: 'main', breakdowns: ['day', 'country'], timeZone: 'Europe/Berlin' });
  tableMs = Math.min(tableMs, performance.now() - t0);
  if (table.rows.length !== ROWS) throw new Error('wrong row count');
}
process.stdout.write(`${JSON.stringify({ parseMs, tableMs })}\n`);
