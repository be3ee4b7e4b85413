/**
 * Explain the change from the selected cell: when the active cell holds an ENGAGE_COMPARE formula,
 * the top of the Report tab offers Explain the change for that comparison (explain-change.ts's part,
 * its ids prefixed `cell-explain`), its metric and breakdown starting from the comparison's own. The
 * server reads the formula's arguments as written (src/core/builder/compare-at-cell.ts) and sends the
 * comparison with the sheet context (getSheetContext), which the Report tab reads again whenever the
 * user comes back to the sidebar (report-here.ts), so it costs no extra call. Insert ENGAGE_EXPLAIN
 * puts the formula beside the comparison (past its columns and one empty column), asking before
 * writing over cells; an argument the formula's text cannot tell (a cell reference, a calculation)
 * is said at once, naming it, and the part's actions stay hidden.
 */
import { type ComparisonAtCell, cellReference } from '../../../../src/core';
import { el, notice, replaceChildren } from '../../../dom';
import type { Moments } from '../../../moments';
import type { ServerClient } from '../../../server';
import type { Busy } from '../part';
import type { SheetContext } from '../pickers/target';
import { explainPart } from './explain-change';

export interface ExplainHere {
  readonly node: HTMLElement;
  /** Its action buttons, off while the tab is busy. */
  readonly buttons: readonly HTMLButtonElement[];
  /** Shows the comparison the selected cell holds (null: none). */
  show(found: ComparisonAtCell | null): void;
  /** The sheet context once read, after showing its comparison (the Report tab's reading, report-here.ts). */
  following(read: Promise<SheetContext | undefined>): Promise<SheetContext | undefined>;
}

export function explainHere(ctx: { server: ServerClient; moments: Moments }, busy: Busy): ExplainHere {
  let found: ComparisonAtCell | null = null;
  const part = explainPart(ctx, () => found?.request ?? found?.problem ?? 'Select a cell that holds ENGAGE_COMPARE.', busy, {
    prefix: 'cell-explain',
    insertAt: () => found?.beside,
  });
  const line = el('div', { id: 'cell-explain-here', 'aria-live': 'polite' });
  const node = el('div', { id: 'cell-explain', hidden: true }, line, part.node);
  return {
    node,
    buttons: part.buttons,
    async following(read) {
      const context = await read;
      if (context) this.show(context.comparisonHere);
      return context;
    },
    show(next) {
      const same = found !== null && next !== null && found.cell === next.cell && JSON.stringify(found) === JSON.stringify(next);
      found = next;
      node.hidden = !next;
      if (!next) return;
      const beside = cellReference(next.beside.sheetName, next.beside.cell);
      replaceChildren(
        line,
        next.request
          ? notice(
              'info',
              `The selected cell ${next.cell} holds ENGAGE_COMPARE: explain its change here (ENGAGE_EXPLAIN goes to ${beside}).`,
            )
          : notice('error', `The selected cell ${next.cell} holds ENGAGE_COMPARE. ${next.problem ?? ''}`),
      );
      part.node.hidden = !next.request;
      // A comparison newly selected: the pickers start from it, open; the user's choices stay otherwise.
      if (!same && next.request) {
        part.preset(next.metrics, next.breakdowns);
        part.node.open = true;
      }
    },
  };
}
