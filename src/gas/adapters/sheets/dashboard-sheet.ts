/**
 * Writes the dashboard the core laid out (src/core/builder/dashboard.ts) into a new sheet: the labels
 * (each kept text by a leading apostrophe) and the ENGAGE_* formulas in one batched write, the bold labels in one more, a number format call
 * per block, the key figures' band, and the native line chart of revenue and RPM by day (RPM on the
 * right axis). An existing dashboard is left as it is: the new one is "Engage dashboard (2)", and so
 * on, so nothing a user added to the first is lost. Sheets then runs the formulas, which fetch.
 */
import { DASHBOARD_SHEET_NAME, type DashboardLayout, dashboardInput, freeSheetName } from '../../../core';

/** Rows formatted below a block that grows with the publishers: 10 rows for each of at most 50 publishers. */
const GROWING_BLOCK_ROWS = 502;
const BAND_BACKGROUND = '#e6f4ea';

export function writeDashboard(
  ss: GoogleAppsScript.Spreadsheet.Spreadsheet,
  layout: DashboardLayout,
): { sheetName: string; subject: string; formulas: number; charts: number } {
  const sheetName = freeSheetName(
    ss.getSheets().map((s) => s.getName()),
    DASHBOARD_SHEET_NAME,
  );
  // insertSheet makes the new sheet the active one: the user sees the dashboard fill in.
  const sheet = ss.insertSheet(sheetName, ss.getSheets().length);
  const rows = layout.values.length;
  const columns = layout.values[0]!.length;
  const all = sheet.getRange(1, 1, rows, columns);
  // A new sheet's cells have the automatic format: the labels' apostrophes keep them text.
  all.setValues(dashboardInput(layout));
  all.setFontWeights(layout.fontWeights);
  sheet.getRange(1, 1).setFontSize(16);
  for (const block of layout.blocks) {
    // Each block's formatted columns are one run (the id and name columns before them keep Sheets' own).
    const first = block.numberFormats.findIndex((f) => f !== null);
    if (first < 0) continue;
    const formats = block.numberFormats.slice(first).map((f) => f ?? '@');
    const height = Math.min(block.maxRows ?? GROWING_BLOCK_ROWS, sheet.getMaxRows() - block.row + 1);
    sheet.getRange(block.row, block.column + first, height, formats.length).setNumberFormats(Array.from({ length: height }, () => formats));
  }
  const bands = layout.bands;
  if (bands.length > 0) {
    const last = bands[bands.length - 1]!;
    sheet.getRange(bands[0]!.row, bands[0]!.column, 1, last.column + last.columns - bands[0]!.column).setBackground(BAND_BACKGROUND);
  }
  for (const chart of layout.charts) {
    let builder: GoogleAppsScript.Spreadsheet.EmbeddedChartBuilder = sheet.newChart().asLineChart();
    for (const range of chart.ranges) builder = builder.addRange(sheet.getRange(range));
    const series: Record<number, { targetAxisIndex: number }> = {};
    chart.seriesAxes.forEach((axis, i) => {
      series[i] = { targetAxisIndex: axis };
    });
    const vAxes: Record<number, { title: string }> = {};
    chart.axisTitles.forEach((title, i) => {
      vAxes[i] = { title };
    });
    sheet.insertChart(
      builder
        .setPosition(chart.row, chart.column, 0, 0)
        .setOption('title', chart.title)
        .setOption('width', chart.widthPx)
        .setOption('height', chart.heightPx)
        .setOption('legend', { position: 'bottom' })
        .setOption('series', series)
        .setOption('vAxes', vAxes)
        .build(),
    );
  }
  return { sheetName, subject: layout.subject, formulas: layout.blocks.length, charts: layout.charts.length };
}
