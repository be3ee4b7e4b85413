/**
 * Insert formula: puts the report's equivalent ENGAGE_* formula in the active cell (the server adds
 * columns when the sheet is narrower than the result), and says where it went.
 */
import type { BuilderRequest } from '../../../src/core';
import { el, notice } from '../../dom';
import { failureText, type ServerClient } from '../../server';
import type { Busy } from './part';

export function insertFormulaButton(
  server: ServerClient,
  request: () => BuilderRequest | string,
  busy: Busy,
  show: { outcome(node: HTMLElement): void; error(text: string): void },
): HTMLButtonElement {
  const button = el(
    'button',
    { type: 'button', id: 'insert-formula', title: 'Put the equivalent ENGAGE_* formula in the active cell' },
    'Insert formula',
  );
  button.addEventListener('click', async () => {
    const asked = request();
    if (typeof asked === 'string') return show.error(asked);
    busy.setBusy(true);
    try {
      const result = await server.insertFormula(asked);
      const widened =
        result.columnsAdded > 0
          ? ` Added ${result.columnsAdded} column${result.columnsAdded === 1 ? '' : 's'} so that its result fits.`
          : '';
      show.outcome(
        notice('success', el('span', {}, `Inserted in ${result.cell}: `, el('code', { id: 'inserted-formula' }, result.formula), widened)),
      );
    } catch (error) {
      show.error(failureText(error));
    } finally {
      busy.setBusy(false);
    }
  });
  return button;
}
