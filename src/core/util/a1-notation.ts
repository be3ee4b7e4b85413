/**
 * The one cell a saved report writes from, in A1 notation: the rule a cell must meet (column letters
 * A to ZZZ, a row from 1), naming a cell from its row and column, reading the row and column back,
 * splitting a sheet-qualified reference such as "'My sheet'!B3", and naming a block's range
 * ("'My sheet'!B3:K40") as messages show it. Pure, so the sidebar checks a cell with the same rule the
 * server does.
 */

/** One cell such as "B3": one to three column letters, then a row from 1. */
export const A1_CELL_PATTERN = /^[A-Za-z]{1,3}[1-9]\d{0,6}$/;

/** "B3" for row 3, column 2 (1-based). */
export function a1Cell(row: number, column: number): string {
  let letters = '';
  for (let c = column; c > 0; c = Math.floor((c - 1) / 26)) letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return `${letters}${row}`;
}

/** Row and column (1-based) of a cell such as "B3", or undefined when it is not one cell. */
export function cellPosition(cell: string): { row: number; column: number } | undefined {
  const text = cell.trim();
  if (!A1_CELL_PATTERN.test(text)) return undefined;
  const letters = /^[A-Za-z]+/.exec(text)![0];
  let column = 0;
  for (const ch of letters.toUpperCase()) column = column * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(text.slice(letters.length)), column };
}

/** A sheet-qualified cell such as "'My sheet'!B3" or "Sheet1!A1" split into its sheet and cell. */
export function splitCellReference(reference: string): { sheetName: string; cell: string } | undefined {
  const m = /^(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(reference.trim());
  if (!m) return undefined;
  return { sheetName: m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!, cell: `${m[3]!.toUpperCase()}${m[4]}` };
}

/**
 * A sheet name as a reference writes it, as Sheets itself does: quoted ('My sheet', 'Q1') unless it is
 * one plain word that cannot be read as a cell (A1, R1C1) or a boolean. Every sheet-qualified cell or
 * range the add-on shows goes through here (cellReference, rangeReference), so each is written one way.
 */
export function sheetReference(sheetName: string): string {
  const plain =
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(sheetName) &&
    !/^[A-Za-z]{1,3}\d+$/.test(sheetName) &&
    !/^R\d*C\d*$/i.test(sheetName) &&
    !/^(TRUE|FALSE)$/i.test(sheetName);
  return plain ? sheetName : `'${sheetName.replace(/'/g, "''")}'`;
}

/** "'My sheet'!B3" or "Daily!A1": one cell of a sheet, its name quoted where Sheets quotes it. */
export function cellReference(sheetName: string, cell: string): string {
  return `${sheetReference(sheetName)}!${cell.toUpperCase()}`;
}

/** "'My sheet'!B3:K40" for a block of `rows` by `columns` from its first cell ("Sheet1!B3" for one cell). */
export function rangeReference(block: { sheetName: string; row: number; column: number; rows: number; columns: number }): string {
  const first = a1Cell(block.row, block.column);
  const last = a1Cell(block.row + Math.max(1, block.rows) - 1, block.column + Math.max(1, block.columns) - 1);
  return `${sheetReference(block.sheetName)}!${first}${last === first ? '' : `:${last}`}`;
}
