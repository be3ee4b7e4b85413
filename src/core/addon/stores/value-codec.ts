/**
 * Formula results as text for the cache, and back: sheet values with Dates kept as Dates through
 * JSON (a Date becomes {"$d": epochMs}). Written as a pass over the cells rather than a JSON replacer or
 * reviver, which would run once per value: a 50,000-row result has 1.5 million of them.
 */
import type { Cell } from '../../ports';

export function encodeValues(values: Cell[][]): string {
  const out: unknown[][] = new Array(values.length);
  for (let r = 0; r < values.length; r++) {
    const row = values[r]!;
    let copy: unknown[] | null = null;
    for (let c = 0; c < row.length; c++) {
      const cell = row[c];
      if (typeof cell === 'object' && cell !== null) {
        if (copy === null) copy = row.slice();
        copy[c] = { $d: (cell as Date).getTime() };
      }
    }
    out[r] = copy ?? row;
  }
  return JSON.stringify(out);
}

export function decodeValues(text: string): Cell[][] {
  const values = JSON.parse(text) as unknown[][];
  for (const row of values) {
    for (let c = 0; c < row.length; c++) {
      const cell = row[c];
      if (typeof cell === 'object' && cell !== null) row[c] = new Date((cell as { $d: number }).$d);
    }
  }
  return values as Cell[][];
}
