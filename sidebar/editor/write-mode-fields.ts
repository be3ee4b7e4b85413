/**
 * The write mode controls shared by the Report tab's Schedule section and the Schedules tab's edit
 * form: how each run meets the rows already in the sheet (replace, append, upsert), the row cap of
 * append and upsert, and for an upsert of a daily general report the incremental option (fetch only
 * the new days and the 3 before). Each with a one-line hint that follows the report: upsert names the
 * key it merges by, and is offered for no comparison. The rules and words come from the core
 * (write-modes.ts); the server checks the saved report again.
 */
import {
  DEFAULT_MAX_STORED_ROWS,
  MAX_STORED_ROWS_LIMIT,
  upsertKeyNames,
  type SavedReportInput,
  type WriteMode,
  writeModeOf,
  writeModeProblem,
} from '../../src/core';
import { el, field, replaceChildren, select } from '../dom';
import type { WriteChoice } from './definition-form';

/** What the controls need to know of the report being saved. */
export type ModeReport = Pick<SavedReportInput, 'kind' | 'breakdowns' | 'compareWith'> & { entityId?: string };
/** The fields of a saved report these controls set. */
export type ModeChoice = WriteChoice;

const LABELS: Record<WriteMode, string> = { replace: 'Replace', append: 'Append', upsert: 'Upsert (merge by key)' };

export interface WriteModeFields {
  node: HTMLElement;
  /** Follows the report: upsert off for a comparison, the key in its hint, incremental where `incrementalAllowed`. */
  update(report: ModeReport, incrementalAllowed: boolean): void;
  /** Shows a saved report's choice. */
  set(choice: ModeChoice): void;
  /** The fields for the saved report, or the sentence that says what to fix. */
  value(): ModeChoice | string;
}

/** The controls, ids starting with `prefix`; each field with a hint that follows the report. */
function modeControls(prefix: string) {
  const mode = select(
    (Object.keys(LABELS) as WriteMode[]).map((m) => [m, LABELS[m]] as const),
    'replace',
    { id: `${prefix}-write-mode`, class: 'write-mode' },
  );
  const cap = el('input', {
    type: 'number',
    id: `${prefix}-max-stored-rows`,
    class: 'max-stored-rows',
    min: 1,
    max: MAX_STORED_ROWS_LIMIT,
    step: 1,
    value: String(DEFAULT_MAX_STORED_ROWS),
    inputmode: 'numeric',
  });
  const modeField = field('Write mode', mode, ' ');
  const capField = field('Keep at most (rows)', cap, ' ');
  return {
    mode,
    upsertOption: mode.querySelector<HTMLOptionElement>('option[value="upsert"]')!,
    cap,
    incremental: el('input', { type: 'checkbox', id: `${prefix}-incremental`, class: 'incremental' }),
    modeField,
    capField,
    modeHint: modeField.querySelector('.hint')!,
    capHint: capField.querySelector('.hint')!,
    incrementalBox: el('div', { class: 'field incremental-box' }),
  };
}

/** Each mode's hint, and the cap's for the mode chosen: what goes first past it. */
function hintsOf(report: ModeReport, chosen: WriteMode): { mode: string; cap: string } {
  const keys = upsertKeyNames(report);
  const time = keys.find((k) => k === 'day' || k === 'month');
  const hints: Record<WriteMode, string> = {
    replace: "Each run replaces the last run's rows.",
    append: 'New rows go below, timed in snapshotAt.',
    upsert: `Same ${keys.join(', ')}: newest figures win.`,
  };
  const cap =
    chosen === 'append'
      ? 'Past it, the oldest snapshots go first.'
      : time
        ? `Past it, the oldest ${time}s go first.`
        : 'Past it, rows unrefreshed longest go first.';
  return { mode: hints[chosen], cap };
}

/** Controls whose ids start with `prefix` ("schedule" or "edit-<id>"). */
export function writeModeFields(prefix: string): WriteModeFields {
  const { mode, upsertOption, cap, incremental, modeField, capField, modeHint, capHint, incrementalBox } = modeControls(prefix);
  let report: ModeReport = { kind: 'main' };
  let incrementalAllowed = false;

  const render = () => {
    const upsertProblem = writeModeProblem({ ...report, destination: { writeMode: 'upsert' } }, 'upsert');
    upsertOption.disabled = upsertProblem?.argument === 'writeMode';
    upsertOption.textContent = upsertOption.disabled ? 'Upsert: not for a comparison' : LABELS.upsert;
    if (upsertOption.disabled && mode.value === 'upsert') mode.value = 'replace';
    const chosen = mode.value as WriteMode;
    const hints = hintsOf(report, chosen);
    replaceChildren(modeHint, hints.mode);
    replaceChildren(capHint, hints.cap);
    const offerIncremental = chosen === 'upsert' && incrementalAllowed;
    if (!offerIncremental) incremental.checked = false;
    replaceChildren(
      incrementalBox,
      offerIncremental
        ? el('label', { class: 'check', for: incremental.id }, incremental, 'Incremental: fetch only new days and the 3 before')
        : null,
      offerIncremental ? el('div', { class: 'hint' }, 'Days that leave the period leave the sheet.') : null,
    );
    capField.hidden = chosen === 'replace' || incremental.checked;
  };
  mode.addEventListener('change', render);
  incremental.addEventListener('change', render);
  render();

  return {
    node: el('div', { class: 'write-mode-fields' }, modeField, capField, incrementalBox),
    update(next, allowed) {
      report = next;
      incrementalAllowed = allowed;
      render();
    },
    set(choice) {
      mode.value = writeModeOf({ destination: choice });
      cap.value = String(choice.maxStoredRows ?? DEFAULT_MAX_STORED_ROWS);
      incremental.checked = choice.incremental === true;
      render();
    },
    value(): ModeChoice | string {
      const chosen = mode.value as WriteMode;
      if (chosen === 'replace') return {};
      if (chosen === 'upsert' && incremental.checked) return { writeMode: 'upsert', incremental: true };
      const rows = Number(cap.value.trim());
      if (!cap.value.trim() || !Number.isInteger(rows) || rows < 1 || rows > MAX_STORED_ROWS_LIMIT) {
        return `Keep at most: write a whole number of rows from 1 to ${MAX_STORED_ROWS_LIMIT.toLocaleString('en-US')}.`;
      }
      return { writeMode: chosen, maxStoredRows: rows };
    },
  };
}
