/**
 * Where "Run to sheet" writes: a new sheet (optionally named), an existing sheet from A1, or the
 * active cell. The sheet list and the active cell come from the server and are read again each time
 * the tab opens and after each run.
 */
import { type RunTarget, splitCellReference } from '../../../src/core';
import { el, field, replaceChildren, select } from '../../dom';
import type { ServerClient } from '../../server';

/** The name the server gives a new sheet when none is typed (src/gas/report-targets.ts). */
const NEW_SHEET_NAME = 'Engage report';

export interface TargetPicker {
  /** The Write to field and the target's detail, in form order. */
  readonly nodes: readonly HTMLElement[];
  /** Reads the spreadsheet's sheets and active cell again. */
  loadSheets(): Promise<void>;
  runTarget(): RunTarget;
  /** Where the chosen target starts, as a sheet and a cell. */
  firstCell(): { sheetName: string; cell: string };
}

export function targetPicker(server: ServerClient): TargetPicker {
  const target = select(
    [
      ['newSheet', 'A new sheet'],
      ['existingSheet', 'An existing sheet (from A1)'],
      ['activeCell', 'The active cell'],
    ],
    'newSheet',
    { id: 'report-target' },
  );
  const sheet = el('select', { id: 'report-target-sheet' });
  const newName = el('input', { type: 'text', id: 'report-target-name', placeholder: NEW_SHEET_NAME, maxlength: 90 });
  const detail = el('div');
  let activeCell = '';

  function render(): void {
    const type = target.value as RunTarget['type'];
    if (type === 'newSheet') replaceChildren(detail, field('New sheet name', newName));
    else if (type === 'existingSheet')
      replaceChildren(detail, field('Sheet', sheet, 'Its earlier report there is replaced once every page has arrived.'));
    else
      replaceChildren(
        detail,
        el('div', { class: 'hint field' }, activeCell ? `Starting at ${activeCell}.` : 'Starting at the selected cell.'),
      );
  }

  target.addEventListener('change', render);
  render();
  return {
    nodes: [field('Write to', target), detail],
    async loadSheets() {
      try {
        const context = await server.getSheetContext();
        const previous = sheet.value;
        replaceChildren(sheet, ...context.sheets.map((name) => el('option', { value: name, selected: name === previous }, name)));
        activeCell = context.activeCell;
        render();
      } catch {
        // The picker keeps its previous list; a run reports a missing sheet itself.
      }
    },
    runTarget() {
      const type = target.value as RunTarget['type'];
      if (type === 'existingSheet') return { type, sheetName: sheet.value };
      if (type === 'newSheet') return newName.value.trim() ? { type, sheetName: newName.value.trim() } : { type };
      return { type: 'activeCell' };
    },
    firstCell() {
      const type = target.value as RunTarget['type'];
      if (type === 'existingSheet' && sheet.value) return { sheetName: sheet.value, cell: 'A1' };
      if (type === 'activeCell') {
        const active = splitCellReference(activeCell);
        if (active) return active;
      }
      return { sheetName: newName.value.trim() || NEW_SHEET_NAME, cell: 'A1' };
    },
  };
}
