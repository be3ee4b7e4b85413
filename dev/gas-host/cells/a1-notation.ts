/**
 * A1 notation for the in-memory spreadsheet: parsing "B2", "A1:C3", "A:C", "2:5", "A2:C" and
 * "'My sheet'!A1:B2" into 1-based coordinates, and formatting coordinates back the way
 * Range.getA1Notation does ("A1" for one cell, "A1:B2" otherwise).
 */

export interface GridBox {
  row: number;
  column: number;
  numRows: number;
  numColumns: number;
}

export interface ParsedA1 {
  sheetName?: string;
  /** Open ends (A:C, 2:5, A2:C) are resolved against the sheet's size by `resolveA1`. */
  startRow?: number;
  startColumn?: number;
  endRow?: number;
  endColumn?: number;
}

export function columnToLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

export function lettersToColumn(letters: string): number {
  let column = 0;
  for (const ch of letters.toUpperCase()) column = column * 26 + (ch.charCodeAt(0) - 64);
  return column;
}

const PART = /^\$?([A-Za-z]{0,3})\$?(\d*)$/;

function parsePart(text: string): { column?: number; row?: number } | undefined {
  const match = PART.exec(text);
  if (!match || (!match[1] && !match[2])) return undefined;
  return { column: match[1] ? lettersToColumn(match[1]) : undefined, row: match[2] ? Number(match[2]) : undefined };
}

/** Parses A1 notation; returns undefined when the text is not a reference. */
export function parseA1(text: string): ParsedA1 | undefined {
  let rest = text.trim();
  let sheetName: string | undefined;
  const bang = rest.lastIndexOf('!');
  if (bang >= 0) {
    sheetName = rest.slice(0, bang);
    if (sheetName.startsWith("'") && sheetName.endsWith("'")) sheetName = sheetName.slice(1, -1).replace(/''/g, "'");
    rest = rest.slice(bang + 1);
  }
  const [first, second, extra] = rest.split(':');
  if (extra !== undefined || first === undefined) return undefined;
  const start = parsePart(first);
  if (!start) return undefined;
  if (second === undefined) {
    if (start.row === undefined || start.column === undefined || start.row < 1) return undefined;
    return { sheetName, startRow: start.row, startColumn: start.column, endRow: start.row, endColumn: start.column };
  }
  const end = parsePart(second);
  if (!end) return undefined;
  return { sheetName, startRow: start.row, startColumn: start.column, endRow: end.row, endColumn: end.column };
}

/** Resolves open ends against the sheet size and orders the corners. */
export function resolveA1(parsed: ParsedA1, maxRows: number, maxColumns: number): GridBox {
  const r1 = parsed.startRow ?? 1;
  const c1 = parsed.startColumn ?? 1;
  const r2 = parsed.endRow ?? maxRows;
  const c2 = parsed.endColumn ?? maxColumns;
  const row = Math.min(r1, r2);
  const column = Math.min(c1, c2);
  return { row, column, numRows: Math.abs(r2 - r1) + 1, numColumns: Math.abs(c2 - c1) + 1 };
}

export function formatA1(box: GridBox): string {
  const first = `${columnToLetters(box.column)}${box.row}`;
  if (box.numRows === 1 && box.numColumns === 1) return first;
  return `${first}:${columnToLetters(box.column + box.numColumns - 1)}${box.row + box.numRows - 1}`;
}
