/**
 * "Edit the report behind a sheet": a line at the top of the Report tab that names the report whose
 * block holds the selected cell (written by Run to sheet, or by a saved report's refresh) with an
 * "Edit this report" button, and, once the builder holds such a report, which one it is editing.
 *
 * A sidebar cannot see selection changes in the sheet (Apps Script sends it no event), so the builder
 * asks the server for the report at the active cell whenever the user comes back to the sidebar: the
 * sidebar's window gets the focus (a click in it after a click in the sheet), the page becomes
 * visible, the Report tab opens, and after each run. The answer arrives with the sheet list
 * (getSheetContext), so it costs no extra call.
 */
import { cellReference, type ReportAtCell, rangeReference, type WrittenBlock } from '../../../src/core';
import { el, replaceChildren } from '../../dom';
import type { Moments } from '../../moments';
import type { ReportEdit } from '../../panel';
import { sheetTime } from '../../time';
import type { SheetContext } from './pickers/target';

/** What the builder is editing: where the block is, and the saved report when it is one. */
export interface Editing {
  edit: ReportEdit;
  /** Where Run to sheet writes it again: the block's first cell (or the saved report's target). */
  place: { sheetName: string; cell: string };
}

export interface ReportHereBar {
  readonly node: HTMLElement;
  /** Shows the report at the active cell (null: none) beside what is being edited. */
  show(found: ReportAtCell | null): void;
  /** Shows that the builder now edits this report (undefined: no longer). */
  editing(editing: Editing | undefined): void;
  /** Reads the sheet's context again (one read at a time; one asked for meanwhile follows it) and shows the report there. */
  refresh(): Promise<void>;
}

export interface ReportHereActions {
  /** Reopens a report in the builder. */
  edit(edit: ReportEdit): void;
  /** Leaves editing. */
  stop(): void;
  /** The spreadsheet's zone. */
  timeZone(): string;
  /** Reads the sheet list, the active cell and the report there (the target picker's getSheetContext). */
  read(): Promise<SheetContext | undefined>;
  /** The builder is on screen. */
  visible(): boolean;
  /** What supersedes the sidebar's messages: a saved report deleted while edited ends its editing. */
  moments: Moments;
}

function describe(edit: ReportEdit, timeZone: string): string {
  if (edit.source === 'schedule') return `the saved report “${edit.name}”${edit.range ? ` (${edit.range})` : ''}`;
  const at = 'writtenAt' in edit && typeof edit.writtenAt === 'string' ? `, written ${sheetTime(edit.writtenAt, timeZone)}` : '';
  return `the report in ${edit.range}${at}`;
}

const sameBlock = (a: WrittenBlock | undefined, b: WrittenBlock | undefined) => !!a && !!b && rangeReference(a) === rangeReference(b);

/**
 * Whether the report at the selected cell is the one being edited, so the tab names it once: the same
 * saved report (opened from the Schedules tab, whose edit may carry no block), or the same block.
 */
function sameReport(found: ReportEdit, editing: ReportEdit): boolean {
  if (found.source === 'schedule' && editing.source === 'schedule') return found.scheduleId === editing.scheduleId;
  return sameBlock(found.block, editing.block);
}

export function reportHereBar(actions: ReportHereActions): ReportHereBar {
  const node = el('div', { id: 'report-here', 'aria-live': 'polite' });
  let found: ReportAtCell | null = null;
  let current: Editing | undefined;
  let reading: Promise<void> | undefined;
  let readAgain = false;

  function refresh(): Promise<void> {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        const context = await actions.read();
        if (context) {
          found = context.reportHere;
          render();
        }
      } while (readAgain);
      reading = undefined;
    })();
    return reading;
  }

  // Back in the sidebar after a click in the sheet: the selection may have changed.
  const refreshIfShown = () => {
    if (document.visibilityState === 'visible' && actions.visible()) void refresh();
  };
  window.addEventListener('focus', refreshIfShown);
  document.addEventListener('visibilitychange', refreshIfShown);

  function render(): void {
    replaceChildren(node, ...hereLines(current, found, actions));
  }

  return {
    node,
    refresh,
    show(next) {
      found = next;
      render();
    },
    editing(next) {
      current = next;
      render();
      // A saved report deleted meanwhile (Schedules tab) can no longer be edited: the builder leaves it.
      if (next?.edit.source === 'schedule') {
        const edited = next.edit;
        actions.moments.until([`schedule-deleted:${edited.scheduleId}`], () => {
          if (current?.edit === edited) actions.stop();
        });
      }
    },
  };
}

/** The report being edited, with Stop editing, and the one at the selected cell when it is another, with Edit this report. */
function hereLines(current: Editing | undefined, found: ReportAtCell | null, actions: ReportHereActions): HTMLElement[] {
  const tz = actions.timeZone();
  const lines: HTMLElement[] = [];
  if (current) {
    const saved = current.edit.source === 'schedule';
    lines.push(
      el(
        'div',
        { class: 'notice notice-info', id: 'report-editing' },
        `Editing ${describe(current.edit, tz)}. Run to sheet writes it again from ${cellReference(current.place.sheetName, current.place.cell)}`,
        saved ? '; Save to schedule keeps the changes for its refreshes. ' : '. ',
        el('button', { type: 'button', class: 'link', id: 'report-stop-editing', onclick: () => actions.stop() }, 'Stop editing'),
      ),
    );
  }
  if (found && !(current && sameReport(found, current.edit))) {
    const edit = found;
    lines.push(
      el(
        'div',
        { class: 'notice notice-info', id: 'report-found' },
        `The selected cell is in ${describe(edit, tz)}. `,
        el('button', { type: 'button', class: 'link', id: 'report-edit-here', onclick: () => actions.edit(edit) }, 'Edit this report'),
      ),
    );
  }
  return lines;
}
