/**
 * Sheet names as Google Sheets tells them apart: it refuses a new sheet, or a renamed one, whose name
 * equals another's ignoring case ("A sheet with the name ... already exists"), while getSheetByName
 * matches the exact name only. So the add-on looks for a taken name ignoring case, writes to the
 * existing sheet under its own spelling, and picks a free name that no sheet has in any case.
 */

/** Longest sheet name Sheets accepts. */
export const SHEET_NAME_MAX_CHARS = 100;

/** Whether Sheets takes two names as the same sheet's. */
export function sameSheetName(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

/** The sheet that has `name`, ignoring case, as its own name is spelt; undefined when none has it. */
export function existingSheetName(sheetNames: readonly string[], name: string): string | undefined {
  return sheetNames.includes(name) ? name : sheetNames.find((taken) => sameSheetName(taken, name));
}

/** A sheet name not yet used in any case: "Engage report", "Engage report (2)", ... */
export function freeSheetName(taken: readonly string[], wanted: string): string {
  const names = new Set(taken.map((name) => name.toLowerCase()));
  const base = wanted.trim().slice(0, SHEET_NAME_MAX_CHARS - 6) || 'Engage report';
  if (!names.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!names.has(`${base} (${n})`.toLowerCase())) return `${base} (${n})`;
}
