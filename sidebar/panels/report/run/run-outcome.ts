/**
 * What a finished run shows under the actions: how many rows went where (the range, as Sheets names
 * it), whether it replaced the earlier report there, the note of a partial result, and the first rows
 * as a small table (every cell is text content).
 */
import { formatCount, formatDuration, formatNumberAs, rangeReference, type RunToSheetSummary } from '../../../../src/core';
import { el, notice } from '../../../dom';

/** The success line, the partial note if any, and the preview. */
export function runOutcome(summary: RunToSheetSummary): Array<HTMLElement | null> {
  const plural = (n: number) => (n === 1 ? '' : 's');
  const took = ` ${formatDuration(summary.elapsedMs)}`;
  return [
    notice(
      'success',
      `Wrote ${formatCount(summary.dataRows)} row${plural(summary.dataRows)} to ${rangeReference(summary.block)}${summary.replaced ? ', replacing the earlier report there,' : ''} from ${formatCount(summary.pages)} page${plural(summary.pages)}${took}.`,
    ),
    summary.partialNote ? notice('warning', summary.partialNote) : null,
    previewTable(summary),
  ];
}

/** The first rows as a small table, numbers as the sheet shows them (also Explain the change's run to a sheet). */
export function previewTable(summary: RunToSheetSummary): HTMLElement {
  if (summary.preview.length === 0) return notice('info', 'The report has no rows for this period and these filters.');
  const table = el('table', { id: 'run-preview-table' });
  table.appendChild(el('thead', {}, el('tr', {}, ...summary.header.map((h) => el('th', { scope: 'col' }, h)))));
  const body = el('tbody');
  for (const row of summary.preview) {
    body.appendChild(
      el(
        'tr',
        {},
        // Numbers as the sheet shows them: the same number format each column got there.
        ...row.map((cell, c) =>
          el(
            'td',
            { class: typeof cell === 'number' ? 'num' : '' },
            typeof cell === 'number' ? formatNumberAs(cell, summary.numberFormats[c]) : String(cell),
          ),
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
      summary.dataRows > summary.preview.length ? `First ${summary.preview.length} of ${formatCount(summary.dataRows)} rows:` : 'Rows:',
    ),
    el('div', { class: 'preview', id: 'run-preview' }, table),
  );
}
