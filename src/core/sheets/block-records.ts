/**
 * Where Run to sheet wrote, remembered in the document's properties (one `engage.block.*` key per
 * place), so that the next run at the same place clears what the earlier, longer or wider, result left.
 * The document's properties hold 500 KB in all, so the family stays small: after each write, a record
 * goes when its block was replaced (the new block covers any of its cells), when its sheet is gone
 * (deleted or renamed), and beyond the 50 most recent. A block whose cells a user cleared by hand is
 * not noticed until one of those happens, which is harmless: its record only ever clears cells of
 * its own rectangle, once, at that same place.
 */
import type { ListableStore, BlockPlacement, WrittenBlock } from '../ports';

export const BLOCK_RECORD_PREFIX = 'engage.block.';
/** Records kept at most: each is under 1 KB (a sheet name has at most 100 characters), so 50 stay under 50 KB. */
export const MAX_BLOCK_RECORDS = 50;

interface BlockRecord extends WrittenBlock {
  /** When it was written (epoch ms): the oldest go first past MAX_BLOCK_RECORDS. */
  atMs?: number;
}

export function blockRecordKey(placement: BlockPlacement): string {
  return `${BLOCK_RECORD_PREFIX}${placement.sheetName}!R${placement.row}C${placement.column}`;
}

function parseRecord(text: string | null | undefined): BlockRecord | undefined {
  if (!text) return undefined;
  try {
    const record = JSON.parse(text) as BlockRecord;
    return record &&
      typeof record.sheetName === 'string' &&
      [record.row, record.column, record.rows, record.columns].every(Number.isInteger)
      ? record
      : undefined;
  } catch {
    return undefined;
  }
}

function overlaps(a: WrittenBlock, b: WrittenBlock): boolean {
  return (
    a.sheetName === b.sheetName &&
    a.row < b.row + b.rows &&
    b.row < a.row + a.rows &&
    a.column < b.column + b.columns &&
    b.column < a.column + a.columns
  );
}

export class BlockRecords {
  constructor(private readonly store: ListableStore) {}

  /** The block last written at this place, if remembered. */
  previous(placement: BlockPlacement): WrittenBlock | undefined {
    const record = parseRecord(this.store.get(blockRecordKey(placement)));
    if (!record) return undefined;
    const { atMs: _atMs, ...block } = record;
    return block;
  }

  /** Remembers a written block and prunes the records it made stale; `sheetNames` are the sheets that exist now. */
  remember(written: WrittenBlock, atMs: number, sheetNames: readonly string[]): void {
    const key = blockRecordKey(written);
    this.store.set(key, JSON.stringify({ ...written, atMs } satisfies BlockRecord));
    const sheets = new Set(sheetNames);
    const kept: Array<{ key: string; atMs: number }> = [];
    for (const [other, text] of Object.entries(this.store.entries())) {
      if (!other.startsWith(BLOCK_RECORD_PREFIX) || other === key) continue;
      const record = parseRecord(text);
      if (!record || !sheets.has(record.sheetName) || overlaps(record, written)) this.store.remove(other);
      else kept.push({ key: other, atMs: record.atMs ?? 0 });
    }
    kept.sort((a, b) => b.atMs - a.atMs);
    for (const { key: old } of kept.slice(MAX_BLOCK_RECORDS - 1)) this.store.remove(old);
  }
}
