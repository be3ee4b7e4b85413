/**
 * Insert formula: puts the report's equivalent ENGAGE_* formula in the active cell, or the cell given
 * (ENGAGE_EXPLAIN beside the comparison it explains, explain/explain-here.ts) (the server adds
 * columns when the sheet is narrower than the result), and says where it went. When cells the result
 * would fill hold something, the server writes nothing and asks, as Run to sheet does
 * (run/write-question.ts): the question says where the result goes; Cancel leaves the cells as they
 * were, and "Replace them" sends the formula again with that answer.
 */
import type { BuilderRequest, WriteChoice } from '../../../src/core';
import { el, notice } from '../../dom';
import type { Moments } from '../../moments';
import { failureText, type ServerClient } from '../../server';
import type { Busy } from './part';
import { askBeforeWriting } from './run/write-question';

export function insertFormulaButton(
  ctx: { server: ServerClient; moments: Moments },
  request: () => BuilderRequest | string,
  busy: Busy,
  /** `box`: where the outcome and the question are shown. */
  show: { box: HTMLElement; error(text: string): void },
  /** The button's id and words (another formula than the report's: Explain the change's). */
  look = { id: 'insert-formula', label: 'Insert formula', title: 'Put the equivalent ENGAGE_* formula in the active cell' },
  /** The cell to write instead of the active one (ENGAGE_EXPLAIN beside the comparison it explains). */
  at?: () => { sheetName: string; cell: string } | undefined,
): HTMLButtonElement {
  const button = el('button', { type: 'button', id: look.id, title: look.title }, look.label);
  const say = (node: HTMLElement) => ctx.moments.say(show.box, node, ['action', 'sign-in']);
  button.addEventListener('click', async () => {
    const asked = request();
    if (typeof asked === 'string') return show.error(asked);
    busy.setBusy(true);
    try {
      const cell = at?.();
      let options: { choice?: WriteChoice; at?: { sheetName: string; cell: string } } = cell ? { at: cell } : {};
      for (;;) {
        const result = await ctx.server.insertFormula(asked, options);
        if ('question' in result) {
          const choice = await askBeforeWriting(show.box, result.question);
          if (!choice) return say(notice('info', 'Nothing was written.'));
          options = { ...options, choice };
          continue;
        }
        const widened =
          result.columnsAdded > 0
            ? ` Added ${result.columnsAdded} column${result.columnsAdded === 1 ? '' : 's'} so that its result fits.`
            : '';
        return say(
          notice(
            'success',
            el('span', {}, `Inserted in ${result.cell}: `, el('code', { id: 'inserted-formula' }, result.formula), widened),
          ),
        );
      }
    } catch (problem) {
      show.error(failureText(problem));
    } finally {
      busy.setBusy(false);
    }
  });
  return button;
}
