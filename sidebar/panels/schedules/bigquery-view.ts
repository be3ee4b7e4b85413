/**
 * A BigQuery report's table in the Schedules tab, under its status (whose "Loaded" row says the days
 * loaded): the table's address, a ready query in a read-only box to select or copy into BigQuery's
 * console, and "Open in Sheets", which adds a sheet connected to the table (Connected Sheets) and names
 * it; where the account does not allow that, the server's sentence says so and points at the query,
 * which is then selected. Every text (names, addresses, the query, Sheets' own words) is set as text.
 */
import { type OpenInSheetsAnswer, READY_QUERY_DAYS, type ScheduleView } from '../../../src/core';
import { copyButton } from '../../widgets/copy';
import { el, notice, replaceChildren } from '../../dom';
import type { PanelContext } from '../../panel';
import { failureText } from '../../server';

/** The block for a BigQuery report; null for a report that writes to a sheet. */
export function bigQueryView(view: ScheduleView, ctx: Pick<PanelContext, 'server'>): HTMLElement | null {
  const table = view.warehouse;
  if (!table) return null;
  const prefix = `bigquery-${view.id}`;
  const address = el('div', { class: 'code bigquery-address', id: `${prefix}-address` }, table.address);
  const query = el(
    'textarea',
    {
      class: 'bigquery-query',
      id: `${prefix}-query`,
      readonly: true,
      rows: 7,
      spellcheck: 'false',
      'aria-label': `Ready query for ${view.name}`,
    },
    // As text content: the box shows it and the Copy button copies it (copy.ts reads the text).
    table.query,
  );
  // A read-only box still takes the selection: a click selects the whole query, ready for Ctrl+C.
  query.addEventListener('focus', () => query.select());
  const outcome = el('div', { class: 'bigquery-outcome', role: 'status', 'aria-live': 'polite' });
  const open = el('button', { type: 'button', class: 'secondary bigquery-open' }, 'Open in Sheets');
  open.addEventListener('click', async () => {
    open.disabled = true;
    replaceChildren(outcome, notice('info', 'Adding a connected sheet, and waiting up to 30 s for its first query…'));
    try {
      const answer: OpenInSheetsAnswer = await ctx.server.openReportInSheets(view.id);
      replaceChildren(outcome, notice(answer.opened ? 'success' : 'warning', answer.message));
      if (!answer.opened) query.focus();
    } catch (error) {
      replaceChildren(outcome, notice('error', failureText(error)));
    } finally {
      open.disabled = false;
    }
  });
  return el(
    'section',
    { class: 'bigquery-view', 'aria-label': `BigQuery table of ${view.name}` },
    el('div', { class: 'snippet-head' }, el('span', { class: 'label' }, 'BigQuery table'), copyButton(address, 'the table address')),
    address,
    el(
      'div',
      { class: 'snippet-head' },
      el('label', { class: 'label', for: query.id }, `Ready query (the last ${READY_QUERY_DAYS} days)`),
      copyButton(query, 'the ready query'),
    ),
    query,
    el('div', { class: 'actions' }, open),
    outcome,
  );
}
