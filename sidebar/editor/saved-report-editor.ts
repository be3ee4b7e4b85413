/**
 * The saved-report editor: one set of fields for what a saved report is besides the report itself (its
 * name, how often, paused, where it goes, how each run meets the sheet's rows, the months closed, its
 * notices and alerts), mounted by the Report tab's Schedule section and by the Schedules tab's Edit.
 * The Schedule section chooses the destination (the sheet, or a BigQuery table in a build that loads
 * into BigQuery: destination-fields.ts), types the sheet and first cell and closes months; Edit shows a
 * saved report's destination as saved and a Paused box. Each mount lays the parts out among its own.
 * What the fields mean in a definition, and which a report and its destination allow, is
 * definition-form.ts's; the fields themselves are schedule-fields.ts, write-mode-fields.ts and the
 * notices' own (notice-fields.ts).
 */
import { A1_CELL_PATTERN, type NoticesView, type SavedReportInput } from '../../src/core';
import { el, field } from '../dom';
import { noticeFields } from '../notice-fields';
import {
  allowedFields,
  definitionOf,
  type EditorState,
  editorStateOf,
  incrementalAllowed,
  type Place,
  type ReportFields,
  reportFieldsOf,
} from './definition-form';
import { fieldProblems, type ProblemField } from '../widgets/field-problems';
import { refusalParts } from '../widgets/refusal-parts';
import { destinationFields } from './destination-fields';
import { labelOf, namedField, namesThePlace } from './editor-problems';
import { scheduleFields } from './schedule-fields';
import { writeModeFields } from './write-mode-fields';

export interface EditorOptions {
  /** Starts every element id: "schedule" or "edit-<id>". */
  prefix: string;
  /** The spreadsheet's, on whose clock the schedule's hours are. */
  timeZone?: string | undefined;
  /** The Report tab's Schedule section: tells `changed` when the destination or the write mode changes. */
  section?: { changed: () => void };
  /** The Schedules tab's Edit of a saved report (`view`: when its alerts last fired), which opens with its fields. */
  edit?: { saved: SavedReportInput; view: NoticesView };
}

/** The parts, for the mount to lay out among its own; null where the mount does not show one. */
export interface EditorParts {
  name: HTMLElement;
  schedule: HTMLElement;
  paused: HTMLElement | null;
  destination: HTMLElement | null;
  /** The sheet and first cell; in Edit, hidden until a refusal asks for another sheet or cell. */
  place: HTMLElement | null;
  /** Says the sheet's cell holds a BigQuery report's status. */
  statusHint: HTMLElement | null;
  writeMode: HTMLElement | null;
  closed: HTMLElement | null;
  notices: HTMLElement;
}

/** The report the fields follow: whole, or only its kind, breakdowns and period while the builder's request has a problem. */
export type FollowedReport = ReportFields | Pick<ReportFields, 'kind' | 'breakdowns' | 'period'>;

export interface SavedReportEditor {
  readonly parts: EditorParts;
  /** The name field, to focus or fill in a default. */
  readonly nameInput: HTMLInputElement;
  /** Whether the rows go to a BigQuery table: chosen, or as saved. */
  toTable(): boolean;
  /** Shows a saved report's fields (`view`: when its alerts last fired); undefined: a new report's, how often and the write mode kept. */
  set(definition: SavedReportInput | undefined, view?: NoticesView): void;
  setPlace(place: Place): void;
  /** Follows the report: the fields its destination allows, the write mode's key and incremental option, the alerts' choices. */
  follow(report: FollowedReport): void;
  /**
   * The definition of `report` with the fields as typed, or the first thing to fix: shown under its
   * field (then ''), or to show beside the button; `check` runs once the sheet and cell are read.
   */
  definition(report: ReportFields, check?: () => string | undefined): SavedReportInput | string;
  /** After a new report is saved: a new report's fields, keeping only a table's place to name a new table in (a table takes one saved report). */
  next(saved: SavedReportInput): void;
  /**
   * Puts each part of the server's refusal that names a field under it, worded with its label (one that
   * asks for another sheet or cell shows Edit's sheet and cell); an empty text clears them. Returns the
   * parts that name no field shown, for the mount to show beside its button ('' when none).
   */
  showProblems(message: string): string;
  /** Every field's message goes (another tab, another report). */
  clearProblems(): void;
}

const NO_REPORT: EditorState = {
  name: '',
  schedule: { every: 'day', hour: 6 },
  paused: false,
  place: { sheetName: '', cell: '' },
  table: undefined,
  write: {},
  closedThrough: '',
  notices: {},
};

export function savedReportEditor(options: EditorOptions): SavedReportEditor {
  const { section, edit } = options;
  const fields = editorFields(options);
  const { nameInput, how, modes, notices, destination, place, closed, paused } = fields;
  const problems = editorProblems(options.prefix, edit ? place : null);
  /** What the fields do not show keeps what set() was given: Edit's sheet and cell, the section's pause. */
  let kept = edit ? editorStateOf(edit.saved) : NO_REPORT;
  let followed: FollowedReport = { kind: 'main', period: { type: 'lastDays', days: 7, endingYesterday: true } };
  // A build without BigQuery shows no destination: Edit keeps a saved report's table as saved, while the
  // Schedule section, which offers the sheet alone, saves to the sheet.
  const toTable = () => (destination ? destination.chosen() : edit !== undefined && kept.table !== undefined);
  const watchAlerts = () => {
    const write = modes.value();
    const whole = 'entityId' in followed ? followed : undefined;
    notices.watch(whole && definitionOf(whole, { ...kept, table: undefined, write: typeof write === 'string' ? {} : write }));
  };
  /** Shows what `kept` holds; how often and the write mode only when `all` (a new report's keep the last ones chosen). */
  const show = (all: boolean, view?: NoticesView) => {
    nameInput.value = kept.name;
    problems.clear();
    if (all) {
      how.set(kept.schedule);
      modes.set(kept.write);
      place?.set(kept.place);
    }
    if (paused) paused.checked = kept.paused;
    closed?.set(kept.closedThrough);
    notices.set(kept.notices, view);
    destination?.set(kept.table);
    watchAlerts();
  };
  modes.node.addEventListener('change', () => {
    watchAlerts();
    section?.changed();
  });

  const editor: SavedReportEditor = {
    parts: editorParts(fields, edit !== undefined && kept.table !== undefined),
    nameInput,
    toTable,
    set(definition, view) {
      kept = definition
        ? editorStateOf(definition)
        : { ...kept, name: '', paused: false, table: undefined, closedThrough: '', notices: {} };
      show(definition !== undefined, view);
    },
    setPlace(where) {
      kept = { ...kept, place: where };
      place?.set(where);
    },
    follow(report) {
      followed = report;
      followFields(fields, report, toTable());
      watchAlerts();
    },
    definition(report, check) {
      problems.clear();
      const state = readFields(fields, kept, toTable(), check);
      return 'problem' in state ? problems.local(state) : definitionOf(report, state);
    },
    next(saved) {
      // Nothing of the saved report carries over to the next (its alerts, notices, webhook, write mode ...):
      // the fields are a new report's, and only a table's project, dataset and location stay, its name to give.
      const { table } = editorStateOf(saved);
      kept = { ...NO_REPORT, place: kept.place, table: table && { ...table, tableId: '' } };
      show(true);
    },
    showProblems: problems.server,
    clearProblems: problems.clear,
  };
  if (edit) {
    // The write mode follows the report before it shows the saved one, whose incremental option it then keeps.
    editor.follow(reportFieldsOf(edit.saved));
    editor.set(edit.saved, edit.view);
  }
  return editor;
}

type Fields = ReturnType<typeof editorFields>;

/** Shows the fields `report` allows (into a table or the sheet): the write mode, alerts, the status cell, closed months. */
function followFields(fields: Fields, report: FollowedReport, toTable: boolean): void {
  const allowed = allowedFields(report, toTable);
  fields.modes.node.hidden = !allowed.writeMode;
  fields.notices.offerAlerts(allowed.alerts);
  if (fields.statusHint) fields.statusHint.hidden = !allowed.statusCell;
  if (fields.closed) fields.closed.node.hidden = !allowed.closedMonths;
  fields.modes.update(report, incrementalAllowed(report));
}

/** The parts of the fields; Edit of a BigQuery report shows its table and no write mode. */
function editorParts(fields: Fields, tableAsSaved: boolean): EditorParts {
  const { paused, destination, place, closed } = fields;
  return {
    name: field('Name', fields.nameInput),
    schedule: fields.how.node,
    paused: paused ? el('label', { class: 'check', for: paused.id }, paused, 'Paused (not refreshed until resumed)') : null,
    destination: destination?.node ?? null,
    place: place?.node ?? null,
    statusHint: fields.statusHint,
    writeMode: tableAsSaved ? null : fields.modes.node,
    closed: closed?.node ?? null,
    notices: fields.notices.node,
  };
}

/** The first thing to fix, and the argument of the field it is about (none: the report's, shown beside the button). */
interface FieldsProblem {
  argument?: string;
  problem: string;
}

/**
 * What the fields hold, or the first thing to fix, in the order they are checked; `kept` stands for
 * the fields the mount does not show, and `check` runs once the sheet and cell are read.
 */
function readFields(fields: Fields, kept: EditorState, toTable: boolean, check?: () => string | undefined): EditorState | FieldsProblem {
  const { nameInput, how, modes, notices, destination, place, closed, paused } = fields;
  const name = nameInput.value.trim();
  if (!name) return { argument: 'name', problem: 'Name the saved report.' };
  const where = place ? place.read() : kept.place;
  if ('problem' in where) return where;
  const problem = check?.();
  if (problem) return { problem };
  const write = toTable ? {} : modes.value();
  if (typeof write === 'string') return { argument: 'maxStoredRows', problem: write };
  const closedThrough = closed ? closed.read() : kept.closedThrough;
  if (closedThrough === undefined)
    return { argument: 'closedThrough', problem: 'Months closed through: write a month as yyyy-mm, such as 2026-10, or leave it empty.' };
  const table = destination ? (destination.chosen() ? destination.value() : undefined) : toTable ? kept.table : undefined;
  const pause = paused ? paused.checked : kept.paused;
  return { name, schedule: how.value(), paused: pause, place: where, table, write, closedThrough, notices: notices.value() };
}

/** The fields, as each mount shows them. */
function editorFields({ prefix, timeZone, section, edit }: EditorOptions) {
  const nameInput = el('input', {
    type: 'text',
    id: `${prefix}-name`,
    ...(edit ? { class: 'edit-name' } : {}),
    maxlength: 100,
    autocomplete: 'off',
  });
  // Undefined in a build without BigQuery, which then keeps a saved report's table as it was saved.
  const destination = section
    ? destinationFields(prefix, { choice: true, changed: section.changed })
    : edit?.saved && editorStateOf(edit.saved).table
      ? destinationFields(prefix, { choice: false })
      : undefined;
  return {
    nameInput,
    how: scheduleFields(prefix, undefined, timeZone),
    modes: writeModeFields(prefix),
    notices: noticeFields(prefix, timeZone),
    destination,
    paused: edit ? el('input', { type: 'checkbox', id: `${prefix}-paused`, class: 'edit-paused' }) : null,
    // Edit shows the sheet and cell when a refusal asks for another (showProblems).
    place: section || edit ? placeFields(prefix, section === undefined) : null,
    statusHint:
      section && destination
        ? el(
            'div',
            { class: 'hint field', id: `${prefix}-status-hint` },
            'The status of the loads (days loaded, what is left) is written here.',
          )
        : null,
    closed: section ? closedMonthsField(prefix) : null,
  };
}

/** The sheet and first cell the report writes to, read trimmed, the cell in capitals; or what to fix. */
function placeFields(prefix: string, hidden: boolean) {
  const sheet = el('input', { type: 'text', id: `${prefix}-sheet`, maxlength: 100, autocomplete: 'off' });
  const cell = el('input', { type: 'text', id: `${prefix}-cell`, maxlength: 10, placeholder: 'A1', autocomplete: 'off' });
  return {
    node: el(
      'div',
      { class: 'row place-fields', hidden },
      field('Sheet', sheet),
      el('div', { class: 'narrow cell-field' }, field('Cell', cell)),
    ),
    set(place: Place) {
      sheet.value = place.sheetName;
      cell.value = place.cell;
    },
    read(): Place | FieldsProblem {
      if (!sheet.value.trim()) return { argument: 'target.sheetName', problem: 'Name the sheet it writes to.' };
      if (!A1_CELL_PATTERN.test(cell.value.trim()))
        return { argument: 'target.cell', problem: 'Write the first cell as one cell, such as A1.' };
      return { sheetName: sheet.value.trim(), cell: cell.value.trim().toUpperCase() };
    },
  };
}

/** The months closed of a daily report: a month as yyyy-mm, empty when hidden; undefined when it is no month. */
function closedMonthsField(prefix: string) {
  const closed = el('input', { type: 'text', id: `${prefix}-closed`, maxlength: 7, placeholder: '2026-10', autocomplete: 'off' });
  const node = field(
    'Months closed through',
    closed,
    'A revision of a day in a closed month (yyyy-mm and before) raises a notice. Empty: no month is closed.',
  );
  return {
    node,
    set(month: string) {
      closed.value = month;
    },
    read(): string | undefined {
      const month = node.hidden ? '' : closed.value.trim();
      return month && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? undefined : month;
    },
  };
}

/**
 * The editor's messages under its fields: the first thing to fix of its own checks, or the server's
 * refusal, whose request for another sheet or cell shows Edit's (`hiddenPlace`). Each returns what is
 * left for beside the button ('' when nothing is).
 */
function editorProblems(prefix: string, hiddenPlace: { node: HTMLElement } | null) {
  const problems = fieldProblems();
  const fieldOf = (argument: string) => editorFieldOf(prefix, argument);
  return {
    clear: () => problems.clear(),
    local(found: FieldsProblem): string {
      const field = found.argument === undefined ? undefined : fieldOf(found.argument);
      if (field) problems.showAt(field, found.problem);
      return field ? '' : found.problem;
    },
    server(message: string): string {
      const asksForPlace = refusalParts(message).some((part) => part.argument !== undefined && namesThePlace(part.argument));
      if (hiddenPlace && asksForPlace) hiddenPlace.node.hidden = false;
      return problems.show(message, fieldOf, labelOf);
    },
  };
}

/** The field of the editor whose ids start with `prefix` that shows `argument`, when it is on the page and not hidden. */
function editorFieldOf(prefix: string, argument: string): ProblemField | undefined {
  const named = namedField(argument);
  if (!named?.id) return undefined;
  const control = document.getElementById(`${prefix}-${named.id}`);
  if (!control || control.closest('[hidden]') || !control.isConnected) {
    return named.otherwise ? editorFieldOf(prefix, named.otherwise) : undefined;
  }
  const box = control.closest<HTMLElement>('.field, .alert-fields, label.check') ?? control.parentElement!;
  return { label: named.label, control, box };
}
