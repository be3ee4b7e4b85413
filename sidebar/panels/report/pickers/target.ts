/**
 * Where "Run to sheet" writes: a new sheet (optionally named), an existing sheet from a first cell
 * (A1 unless a report reopened from the sheet says otherwise), or the active cell. The sheet list,
 * the active cell and the report whose block holds it come from the server (getSheetContext) and are
 * read again each time the tab opens, the sidebar gets the focus back, and after each run.
 */
import { A1_CELL_PATTERN, type ComparisonAtCell, type ReportAtCell, type RunTarget, splitCellReference } from '../../../../src/core';
import { el, field, replaceChildren, select } from '../../../dom';
import type { ServerClient } from '../../../server';

/** The name the server gives a new sheet when none is typed (src/gas/adapters/sheets/report-targets.ts). */
const NEW_SHEET_NAME = 'Engage report';

export interface SheetContext {
  sheets: string[];
  activeCell: string;
  reportHere: ReportAtCell | null;
  /** The comparison the active cell's ENGAGE_COMPARE asks for (explain/explain-here.ts). */
  comparisonHere: ComparisonAtCell | null;
}

export interface TargetPicker {
  /** The Write to field and the target's detail, in form order. */
  readonly nodes: readonly HTMLElement[];
  /** Reads the spreadsheet's sheets, the active cell and the report there again; undefined when that failed. */
  loadSheets(): Promise<SheetContext | undefined>;
  /** The target, or the first thing to fix. */
  runTarget(): RunTarget | string;
  /** Where the chosen target starts, as a sheet and a cell. */
  firstCell(): { sheetName: string; cell: string };
  /** Writes to this sheet from this cell (a report reopened from its block); a sheet not there yet is a new sheet. */
  set(place: { sheetName: string; cell: string }): void;
}

export function targetPicker(server: ServerClient): TargetPicker {
  const target = select(
    [
      ['newSheet', 'A new sheet'],
      ['existingSheet', 'An existing sheet'],
      ['activeCell', 'The active cell'],
    ],
    'newSheet',
    { id: 'report-target' },
  );
  const sheet = el('select', { id: 'report-target-sheet' });
  const cell = el('input', { type: 'text', id: 'report-target-cell', value: 'A1', maxlength: 10, autocomplete: 'off' });
  const newName = el('input', { type: 'text', id: 'report-target-name', placeholder: NEW_SHEET_NAME, maxlength: 90 });
  const detail = el('div');
  let activeCell = '';

  function render(): void {
    replaceChildren(detail, ...targetDetail(target.value as RunTarget['type'], { sheet, cell, newName }, activeCell));
  }

  function offerSheets(names: readonly string[]): void {
    const previous = sheet.value;
    replaceChildren(sheet, ...names.map((name) => el('option', { value: name, selected: name === previous }, name)));
  }

  target.addEventListener('change', render);
  render();
  return {
    nodes: [field('Write to', target), detail],
    async loadSheets() {
      try {
        const context = await server.getSheetContext();
        offerSheets(context.sheets);
        activeCell = context.activeCell;
        render();
        return context;
      } catch {
        // The picker keeps its previous list; a run reports a missing sheet itself.
        return undefined;
      }
    },
    runTarget: () => chosenTarget(target.value as RunTarget['type'], { sheet, cell, newName }),
    firstCell() {
      const type = target.value as RunTarget['type'];
      if (type === 'existingSheet' && sheet.value) return { sheetName: sheet.value, cell: cell.value.trim().toUpperCase() || 'A1' };
      if (type === 'activeCell') {
        const active = splitCellReference(activeCell);
        if (active) return active;
      }
      return { sheetName: newName.value.trim() || NEW_SHEET_NAME, cell: 'A1' };
    },
    set(place) {
      const known = Array.from(sheet.options).some((o) => o.value === place.sheetName);
      if (known || place.cell !== 'A1') {
        if (!known) offerSheets([...Array.from(sheet.options).map((o) => o.value), place.sheetName]);
        target.value = 'existingSheet';
        sheet.value = place.sheetName;
        cell.value = place.cell;
      } else {
        target.value = 'newSheet';
        newName.value = place.sheetName;
      }
      render();
    },
  };
}

/** The controls of a target's detail. */
interface TargetControls {
  sheet: HTMLSelectElement;
  cell: HTMLInputElement;
  newName: HTMLInputElement;
}

/** What the chosen kind of target asks for: a new sheet's name, a sheet and its first cell, or nothing but the active cell. */
function targetDetail(type: RunTarget['type'], { sheet, cell, newName }: TargetControls, activeCell: string): HTMLElement[] {
  if (type === 'newSheet')
    return [field('New sheet name', newName, 'Run again with the same name, and its earlier report there is replaced.')];
  if (type === 'existingSheet')
    return [
      el('div', { class: 'row' }, field('Sheet', sheet), el('div', { class: 'narrow cell-field' }, field('From', cell))),
      el(
        'div',
        { class: 'hint field' },
        'Its earlier report there is replaced once every page has arrived; other data is asked about first.',
      ),
    ];
  return [el('div', { class: 'hint field' }, activeCell ? `Starting at ${activeCell}.` : 'Starting at the selected cell.')];
}

/** The run's target from the controls, or the first thing to fix. */
function chosenTarget(type: RunTarget['type'], { sheet, cell, newName }: TargetControls): RunTarget | string {
  if (type === 'existingSheet') {
    const first = cell.value.trim().toUpperCase() || 'A1';
    if (!A1_CELL_PATTERN.test(first)) return 'Write the first cell as one cell, such as A1.';
    return { type, sheetName: sheet.value, cell: first };
  }
  if (type === 'newSheet') return newName.value.trim() ? { type, sheetName: newName.value.trim() } : { type };
  return { type: 'activeCell' };
}
