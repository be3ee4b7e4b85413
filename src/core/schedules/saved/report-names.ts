/**
 * How a user's saved reports are told apart by name, in the Schedules tab, the run log and the
 * notices: a name is the owner's once in a spreadsheet (compared trimmed, its spaces single, in any
 * case; other editors' names do not count), refused before anything is saved when it is taken, and
 * a default name is made free with a number where the words alone would repeat one.
 */
import { ValidationError } from '../../errors';
import type { SavedReport } from './saved-reports';

/** The longest name a saved report takes (savedReportInputSchema). */
const NAME_MAX_CHARACTERS = 100;

/** A name as two saved reports are told apart by it. */
const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Refuses a name that another of the owner's saved reports here already has. A changed report
 * (`before`) is not compared with itself, and keeps a name it already had, even one another report
 * shared before names had to differ.
 */
export function checkNameFree(
  name: string,
  reports: readonly Pick<SavedReport, 'id' | 'ownerId' | 'name'>[],
  ownerId: string | null,
  before?: Pick<SavedReport, 'id' | 'name'>,
): void {
  const key = nameKey(name);
  if (ownerId === null || (before && nameKey(before.name) === key)) return;
  if (!reports.some((r) => r.ownerId === ownerId && r.id !== before?.id && nameKey(r.name) === key)) return;
  throw new ValidationError([
    { argument: 'name', message: `Name: “${name.trim()}” is already used by another saved report; choose another` },
  ]);
}

/** `name` when none of `taken` has it, else the same with the first free number: "… (2)", "… (3)"; each within 100 characters. */
export function freeName(name: string, taken: readonly string[]): string {
  const used = new Set(taken.map(nameKey));
  const fit = (text: string, end = '') => `${text.slice(0, NAME_MAX_CHARACTERS - end.length).trimEnd()}${end}`;
  let candidate = fit(name);
  for (let n = 2; used.has(nameKey(candidate)); n++) candidate = fit(name, ` (${n})`);
  return candidate;
}
