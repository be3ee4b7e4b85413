/**
 * Where a Run to sheet may write without asking. A run writes over cells only when they are empty or
 * hold its own report's earlier block at the same place (the same report type, publisher and
 * breakdowns, or the block the sidebar reopened with "Edit this report"); otherwise it writes nothing
 * and returns a question that names the range, and the sidebar sends the run again with the user's
 * answer: replace the cells, write below them (an existing sheet or the active cell), or, when a new
 * sheet's name is taken, write to a new sheet "Name (2)". A taken sheet name is asked about before
 * anything is fetched; cells are checked once the report's size is known, before the write. Insert
 * formula asks the same way before its formula goes where its result would fill cells that hold
 * something.
 */
import { ValidationError } from '../../errors';
import type { BlockPlacement, SheetContents, WrittenBlock } from '../../ports';
import { DAY_PRESETS, HOUR_PRESETS } from '../../builder/date-presets';
import { blocksOverlap, type BlockRecords } from '../../sheets/block-records';
import type { SavedReport, RefreshStatus } from '../../schedules/saved/saved-reports';
import { a1Cell, cellReference, rangeReference, sheetReference } from '../../util/a1-notation';
import { existingSheetName, freeSheetName } from '../../util/sheet-names';

/** The user's answer to a question: write over the cells, write below them, or write to a new sheet. */
export type WriteChoice = 'replace' | 'append' | 'newSheet';
export const WRITE_CHOICES: readonly WriteChoice[] = ['replace', 'append', 'newSheet'];

export interface RunWriteOptions {
  /** The answer to an earlier question; left out, the run asks before writing over anything. */
  choice?: WriteChoice;
  /** The sidebar reopened the report whose block starts at the target ("Edit this report"): that block is the run's own. */
  editing?: boolean;
}

/** A run's place: a new sheet is inserted when it does not exist yet. */
export type RunPlacement = BlockPlacement & { newSheet?: boolean };

/** What the sidebar asks before a run writes over cells. */
export interface WriteQuestion {
  /**
   * 'sheetTaken': a new sheet's name is taken (asked before fetching); 'occupied': cells the report
   * covers hold something; 'formula': cells Insert formula's result would fill hold something.
   */
  reason: 'sheetTaken' | 'occupied' | 'formula';
  /** The cells the report would cover ("Sheet1!B3:K40"); before fetching, its first cell; a formula's, its columns down ("Sheet1!B3:K"). */
  range: string;
  /** The rectangle of the cells that hold something, and how many do. */
  occupied: string;
  nonEmpty: number;
  /** What those cells are, when the add-on wrote them ("the saved report “Daily revenue”"). */
  holder?: string;
  /** The answers that fit, in the order to offer them. */
  choices: WriteChoice[];
  /** Where "append" would write from. */
  appendAt?: string;
  /** The sheet "newSheet" would insert. */
  newSheetName?: string;
}

/** Saved reports as this check reads them: their definitions and where each last wrote. */
export interface SavedReportBlocks {
  list(): SavedReport[];
  status(id: string): RefreshStatus;
}

/** Far enough to reach the end of any sheet: the adapter counts only the cells the sheet has. */
const TO_THE_END = 10_000_000;

/** Checks the options of a run before anything is fetched. */
export function checkWriteOptions(options: unknown, placement: RunPlacement): RunWriteOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options))
    throw ValidationError.single('options', 'must be {choice, editing} or left out');
  const o = options as Record<string, unknown>;
  const result: RunWriteOptions = {};
  if (o.choice !== undefined && o.choice !== null) {
    if (!WRITE_CHOICES.includes(o.choice as WriteChoice))
      throw ValidationError.single('choice', `must be one of ${WRITE_CHOICES.join(', ')}`);
    const choice = o.choice as WriteChoice;
    if (choice === 'newSheet' && !placement.newSheet) throw ValidationError.single('choice', "'newSheet' is only for a new sheet");
    if (choice === 'append' && placement.newSheet) throw ValidationError.single('choice', "'append' is not for a new sheet");
    result.choice = choice;
  }
  if (o.editing !== undefined && typeof o.editing !== 'boolean') throw ValidationError.single('editing', 'must be true or false');
  if (o.editing === true) result.editing = true;
  return result;
}

/** Checks Insert formula's options: the answer 'replace' to its question, or none. */
export function checkFormulaOptions(options: unknown): WriteChoice | undefined {
  if (options === undefined || options === null) return undefined;
  if (typeof options !== 'object' || Array.isArray(options))
    throw ValidationError.single('options', "must be {choice: 'replace'} or left out");
  const { choice } = options as Record<string, unknown>;
  if (choice !== undefined && choice !== null && choice !== 'replace')
    throw ValidationError.single('choice', "must be 'replace' for a formula");
  return choice === 'replace' ? choice : undefined;
}

const PRESETS: readonly string[] = [...DAY_PRESETS, ...HOUR_PRESETS];
const REPORT_FIELDS = [
  'kind',
  'entityId',
  'fromDate',
  'toDate',
  'breakdowns',
  'metrics',
  'filter',
  'sort',
  'order',
  'currencyCode',
  'decDigits',
  'maxRows',
  'compareWith',
];

/** The report a block record keeps: the sidebar's request, its known fields only (the request was validated). */
export function recordedReport(request: unknown): Record<string, unknown> {
  const r = request as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of REPORT_FIELDS) if (r[field] !== undefined && r[field] !== '') kept[field] = r[field];
  if (typeof r.preset === 'string' && PRESETS.includes(r.preset)) kept.preset = r.preset;
  return kept;
}

/** The same report: the same type, publisher and breakdowns, which make the rows; period, metrics and filters may change. */
function sameReport(a: { kind?: unknown; entityId?: unknown; breakdowns?: unknown }, b: typeof a): boolean {
  const list = (v: unknown) => JSON.stringify(Array.isArray(v) && v.length > 0 ? v : []);
  return a.kind === b.kind && a.entityId === b.entityId && list(a.breakdowns) === list(b.breakdowns);
}

const samePlace = (a: BlockPlacement, b: BlockPlacement) => a.sheetName === b.sheetName && a.row === b.row && a.column === b.column;

/** Decides where a run writes, and when it must ask first. */
export class RunPlacer {
  constructor(
    private readonly contents: SheetContents,
    private readonly records: BlockRecords,
    private readonly saved?: SavedReportBlocks,
  ) {}

  /**
   * Before fetching: a new sheet whose name is taken (in any case, as Sheets compares names) is asked
   * about, unless that sheet is empty or holds this report's own earlier block at the same place; the
   * run then writes to that sheet, under its own spelling. With the answer "newSheet", the run gets a
   * free name.
   */
  beforeFetch(wanted: RunPlacement, sheetNames: readonly string[], report: Record<string, unknown>, options: RunWriteOptions) {
    const existing = wanted.newSheet ? existingSheetName(sheetNames, wanted.sheetName) : undefined;
    if (existing === undefined) return { placement: wanted };
    const newSheetName = freeSheetName(sheetNames, wanted.sheetName);
    if (options.choice === 'newSheet') return { placement: { ...wanted, sheetName: newSheetName } };
    const placement = { ...wanted, sheetName: existing };
    if (options.choice === 'replace') return { placement };
    // The same report's earlier block there is replaced (cells beyond it are checked once the size is known).
    if (this.ownBlock(placement, report, options)) return { placement };
    const found = this.contents.contentIn({ ...placement, rows: TO_THE_END, columns: TO_THE_END });
    if (!found) return { placement };
    const question: WriteQuestion = {
      reason: 'sheetTaken',
      range: cellReference(placement.sheetName, a1Cell(placement.row, placement.column)),
      occupied: rangeReference(found.box),
      nonEmpty: found.count,
      choices: ['replace', 'newSheet'],
      newSheetName,
    };
    const holder = this.holder(found.box);
    if (holder) question.holder = holder;
    return { placement, question };
  }

  /**
   * Once the report's size is known: "append" moves the block below what the columns hold; without an
   * answer, cells that hold something other than the run's own earlier block make a question.
   */
  beforeWrite(placement: RunPlacement, rows: number, columns: number, report: Record<string, unknown>, options: RunWriteOptions) {
    if (options.choice === 'replace' || options.choice === 'newSheet') return { placement };
    const below = () => {
      const found = this.contents.contentIn({ ...placement, rows: TO_THE_END, columns });
      return found ? { ...placement, row: found.box.row + found.box.rows + 1 } : placement;
    };
    if (options.choice === 'append') return { placement: below() };
    const area = { ...placement, rows, columns };
    const found = this.contents.contentIn(area, this.ownBlock(placement, report, options));
    if (!found) return { placement };
    const appendAt = below();
    const question: WriteQuestion = {
      reason: 'occupied',
      range: rangeReference(area),
      occupied: rangeReference(found.box),
      nonEmpty: found.count,
      choices: placement.newSheet ? ['replace'] : ['replace', 'append'],
      appendAt: cellReference(appendAt.sheetName, a1Cell(appendAt.row, appendAt.column)),
    };
    const holder = this.holder(found.box);
    if (holder) question.holder = holder;
    return { placement, question };
  }

  /**
   * Before Insert formula writes at `at`: a formula's result fills its columns down as far as the
   * report's rows go (unknown until it computes), and a cell there that holds something would be
   * written over (the formula's own cell) or stop the result with #REF!. Asks when any does; answered
   * "replace", the cells that hold something are to be cleared first.
   */
  beforeFormula(at: BlockPlacement, columns: number, choice: WriteChoice | undefined): { question?: WriteQuestion; clear?: WrittenBlock } {
    const found = this.contents.contentIn({ ...at, rows: TO_THE_END, columns });
    if (!found) return {};
    if (choice === 'replace') return { clear: found.box };
    const lastColumn = a1Cell(1, at.column + Math.max(1, columns) - 1).slice(0, -1);
    const question: WriteQuestion = {
      reason: 'formula',
      range: `${sheetReference(at.sheetName)}!${a1Cell(at.row, at.column)}:${lastColumn}`,
      occupied: rangeReference(found.box),
      nonEmpty: found.count,
      choices: ['replace'],
    };
    const holder = this.holder(found.box);
    if (holder) question.holder = holder;
    return { question };
  }

  /** The earlier block at this very place that is this run's own: the same report's, or the one being edited. */
  private ownBlock(placement: BlockPlacement, report: Record<string, unknown>, options: RunWriteOptions): WrittenBlock | undefined {
    const record = this.records.record(placement);
    // A record from before reports were kept with it is taken as the run's own, as every earlier run at the same place was.
    if (record && (options.editing || !record.report || sameReport(record.report, report))) return record;
    for (const saved of this.saved?.list() ?? []) {
      const written = this.saved!.status(saved.id).written;
      if (written && samePlace(written, placement) && (options.editing || sameReport(saved, report))) return written;
    }
    return undefined;
  }

  /** Who wrote the cells in `box`, when the add-on did. */
  private holder(box: WrittenBlock): string | undefined {
    for (const saved of this.saved?.list() ?? []) {
      const written = this.saved!.status(saved.id).written;
      if (written && blocksOverlap(written, box)) return `the saved report “${saved.name}”`;
    }
    return this.records.find(box) ? 'an earlier Engage report' : undefined;
  }
}
