/**
 * What a finished run shows under the actions: how many rows went where (the range, as Sheets names
 * it), whether it replaced the earlier report there, the note of a partial
 * result, and the first rows as a small table (every cell is text content); and whether Add chart
 * can draw the run's block.
 */
import { rangeReference, type RunToSheetSummary } from '../../../src/core';
import { el, notice } from '../../dom';

/** Why the Add chart button is off for a run with this header (or before any run), or undefined when it can draw. */
export function chartBlocker(header: readonly string[] | undefined): string | undefined {
  if (!header?.includes('day')) return 'Run a report broken down by day first';
  if (!header.includes('revenue') || !(header.includes('rpmByPvs') || header.includes('reqsRpm')))
    return 'The chart draws revenue and RPM: choose both metrics and run the report again';
  return undefined;
}

/** The success line, the partial note if any, and the preview. */
export function runOutcome(summary: RunToSheetSummary): Array<HTMLElement | null> {
  const plural = (n: number) => (n === 1 ? '' : 's');
  return [
    notice(
      'success',
      `Wrote ${summary.dataRows} row${plural(summary.dataRows)} to ${rangeReference(summary.block)}${summary.replaced ? ', replacing the earlier report there,' : ''} from ${summary.pages} page${plural(summary.pages)} in ${(summary.elapsedMs / 1000).toFixed(1)} s.`,
    ),
    summary.partialNote ? notice('warning', summary.partialNote) : null,
    previewTable(summary),
  ];
}

function previewTable(summary: RunToSheetSummary): HTMLElement {
  if (summary.preview.length === 0) return notice('info', 'The report has no rows for this period and these filters.');
  const table = el('table', { id: 'run-preview-table' });
  table.appendChild(el('thead', {}, el('tr', {}, ...summary.header.map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  for (const row of summary.preview) {
    body.appendChild(
      el(
        'tr',
        {},
        ...row.map((cell) =>
          el('td', { class: typeof cell === 'number' ? 'num' : '' }, typeof cell === 'number' ? formatNumber(cell) : String(cell)),
        ),
      ),
    );
  }
  table.appendChild(body);
  return el(
    'div',
    {},
    el(
      'div',
      { class: 'hint' },
      summary.dataRows > summary.preview.length ? `First ${summary.preview.length} of ${summary.dataRows} rows:` : 'Rows:',
    ),
    el('div', { class: 'preview', id: 'run-preview' }, table),
  );
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : n.toLocaleString('en-US', { maximumFractionDigits: 4 });
}
