/**
 * Which publishers a report covers: the `entityId` argument of a report may name one publisher, a
 * list of them (a comma-separated text, or a range of cells in a formula), or "all", every publisher
 * the signed-in user sees in the publishers lookup. One publisher is the report as it always was; a
 * list or "all" makes a report of several publishers (publisher-reports.ts), one table with the
 * publisher's ID and name in front. A list is checked before anything is sent: no empty item, no
 * duplicate, "all" alone, only text cells, each ID by the publisher-ID rule, and at most
 * MAX_PUBLISHERS_PER_REPORT of them; each message names `entityId` and the rule.
 */
import { ValidationError, type ValidationProblem } from '../../errors';
import { isDate } from '../../util/dates';
import { quoted } from '../../util/text';
import type { LookupEntry } from '../responses/responses';

/**
 * Publisher IDs are hashed strings (hex in practice, field notes); the spec gives no format, so the
 * add-on allows the characters of hex and base64 forms and a generous length. Anything else (a
 * formula, markup, control characters, a paragraph) cannot be an ID and is refused before a request.
 */
export const PUBLISHER_ID_MAX_LENGTH = 128;
const PUBLISHER_ID_PATTERN = /^[A-Za-z0-9._~+/=-]+$/;

/** Why `id` (already trimmed, not empty) cannot be a publisher ID, or undefined when it can; the rule, without the value. */
export function publisherIdProblem(id: string): string | undefined {
  if (/\s/.test(id)) return 'must not contain spaces';
  if (id.length > PUBLISHER_ID_MAX_LENGTH) return `is longer than ${PUBLISHER_ID_MAX_LENGTH} characters, the most a publisher ID has`;
  if (!PUBLISHER_ID_PATTERN.test(id))
    return 'is not a publisher ID: use the id column of ENGAGE_PUBLISHERS() (letters, digits and - _ . ~ + / = only)';
  return undefined;
}

/** The word that asks for every publisher the user sees (any case). */
export const ALL_PUBLISHERS = 'all';
/**
 * The most publishers one report covers. Each takes at least one request, a formula has 25 seconds
 * to fetch and URL Fetch runs some 10 requests at once, so 50 first pages take 5 batches; beyond
 * that a formula would spend its time on first pages alone.
 */
export const MAX_PUBLISHERS_PER_REPORT = 50;
/** The table key of the publisher columns of a report of several publishers: `publisher.id`, `publisher.name`. */
export const PUBLISHER_BREAKDOWN = 'publisher';

/** One publisher as entityId has always been, several listed, or every one the user sees. */
export type PublisherSelection = { type: 'one'; id: string } | { type: 'list'; ids: string[] } | { type: 'all' };

/** A publisher of a report of several: its ID and its name as the lookup lists it ('' when it does not). */
export interface PublisherRef {
  id: string;
  name: string;
}

const problem = (rule: string): ValidationProblem => ({ argument: 'entityId', message: `entityId: ${rule}` });

/**
 * The entityId of a formula as text: a cell's value, or a range read cell by cell (empty cells
 * skipped) and joined with commas. A cell that is not text (a date, a boolean) is refused, naming
 * its place; a number is taken as the ID written with digits. Text is returned trimmed.
 */
export function publisherArgumentText(value: unknown): string {
  const cells = Array.isArray(value) ? value.flatMap((row: unknown) => (Array.isArray(row) ? row : [row])) : [value];
  const parts: string[] = [];
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell === undefined || cell === null || (typeof cell === 'string' && cell.trim() === '')) continue;
    if (typeof cell === 'number' && Number.isFinite(cell)) parts.push(String(cell));
    else if (typeof cell === 'string') parts.push(cell.trim());
    else {
      const what = isDate(cell) ? 'a date' : typeof cell === 'boolean' ? `the boolean ${String(cell).toUpperCase()}` : `a ${typeof cell}`;
      const where = Array.isArray(value) ? `cell ${i + 1} of the range holds ${what}` : `is ${what}`;
      throw ValidationError.single('entityId', `${where}: publisher IDs are text, as ENGAGE_PUBLISHERS() lists them`);
    }
  }
  return parts.join(',');
}

/**
 * What an entityId text selects. Text without a comma that is not "all" is one publisher, checked
 * later with the report's other arguments exactly as before; a list and "all" are checked here.
 */
export function publisherSelection(entityId: unknown): PublisherSelection {
  if (typeof entityId !== 'string') return { type: 'one', id: entityId as string };
  const text = entityId.trim();
  if (text.toLowerCase() === ALL_PUBLISHERS) return { type: 'all' };
  if (!text.includes(',')) return { type: 'one', id: entityId };
  const items = text.split(',').map((s) => s.trim());
  const problems: ValidationProblem[] = [];
  const ids: string[] = [];
  items.forEach((id, i) => {
    if (id === '') {
      problems.push(problem(`item ${i + 1} of ${items.length} is empty: separate publisher IDs with single commas, as in "id1,id2"`));
    } else if (id.toLowerCase() === ALL_PUBLISHERS) {
      problems.push(problem(`"all" cannot be combined with publisher IDs: give "all" alone, or only IDs`));
    } else if (ids.includes(id)) {
      problems.push(problem(`${quoted(id)} is listed twice`));
    } else {
      const rule = publisherIdProblem(id);
      if (rule) problems.push(problem(`${quoted(id)} ${rule}`));
      ids.push(id);
    }
  });
  if (ids.length > MAX_PUBLISHERS_PER_REPORT) {
    problems.push(problem(`lists ${ids.length} publishers; a report covers at most ${MAX_PUBLISHERS_PER_REPORT}`));
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { type: 'list', ids };
}

/**
 * Whether an entityId text selects several publishers ("all" or a list), as publisherSelection reads
 * it, without checking the list: a report of several spends each publisher's own rate budget.
 */
export function selectsSeveral(entityId: string): boolean {
  const text = entityId.trim();
  return text.toLowerCase() === ALL_PUBLISHERS || text.includes(',');
}

/** The entityId text of a selection: the ID, the IDs joined with commas, or "all". */
export function selectionText(selection: PublisherSelection): string {
  if (selection.type === 'one') return selection.id;
  return selection.type === 'all' ? ALL_PUBLISHERS : selection.ids.join(',');
}

/**
 * The publishers a selection covers, with their names from the publishers lookup: a list in its
 * order (an ID the lookup does not list, such as a publisher group, keeps an empty name: Engage
 * decides whether it may be reported on), "all" in the lookup's order by name.
 */
export function resolvePublishers(selection: PublisherSelection, entries: readonly LookupEntry[]): PublisherRef[] {
  const listed = entries
    .map((e) => ({ id: String(e.id ?? '').trim(), name: String(e.name ?? '') }))
    .filter((p) => p.id !== '' && publisherIdProblem(p.id) === undefined);
  if (selection.type === 'one') return [{ id: selection.id, name: listed.find((p) => p.id === selection.id)?.name ?? '' }];
  if (selection.type === 'list') return selection.ids.map((id) => ({ id, name: listed.find((p) => p.id === id)?.name ?? '' }));
  const all = listed.filter((p, i) => listed.findIndex((q) => q.id === p.id) === i).sort((a, b) => a.name.localeCompare(b.name));
  if (all.length === 0)
    throw ValidationError.single('entityId', '"all" found no publisher: your Engage user sees none (ENGAGE_PUBLISHERS() lists them)');
  if (all.length > MAX_PUBLISHERS_PER_REPORT) {
    throw ValidationError.single(
      'entityId',
      `"all" is ${all.length} publishers; a report covers at most ${MAX_PUBLISHERS_PER_REPORT}: list the IDs of the publishers you need`,
    );
  }
  return all;
}

/** How a message names a publisher of a report of several: "Publisher 'Daily Planet' (653e...)". */
export function publisherSubject(publisher: PublisherRef): string {
  return publisher.name ? `Publisher ${quoted(publisher.name)} (${publisher.id})` : `Publisher ${publisher.id}`;
}
