/**
 * Where Run to sheet wrote, and what, remembered in the document's properties (one `engage.block.*` key
 * per place): the next run at the same place clears what the earlier, longer or wider, result left, a
 * run asks before writing over cells that are not its own report's, and a cell of the block leads back
 * to the report that wrote it (the sidebar's "Edit this report"). A record holds no secret: the
 * report's settings are what the sidebar built (publisher ID, dates, breakdowns, metrics, filter).
 * The document's properties hold 500 KB in all, so the family stays small: after each write, a record
 * goes when its block was replaced (the new block covers any of its cells), when its sheet is gone
 * (deleted or renamed), and beyond the 50 most recent or the 50 KB they may take together. A block
 * whose cells a user cleared by hand is not noticed until one of those happens, which is harmless: its
 * record only ever clears cells of its own rectangle, once, at that same place.
 */
import type { ListableStore, BlockPlacement, WrittenBlock } from '../ports';
import { utf8Length } from '../util/utf8';

export const BLOCK_RECORD_PREFIX = 'engage.block.';
/** Records kept at most, the most recent. */
export const MAX_BLOCK_RECORDS = 50;
/**
 * Bytes the records may take together (keys and values): 50 KB, a kilobyte read as 1,000 bytes as the
 * property limits are (saved-report-store.ts), beside the 440,000 bytes saved reports may take of the
 * document's 500,000. A record takes some 300 bytes; one with a filter as long as a request's address
 * allows, some 2.5 KB, so the bytes, not the count, bound a family of long ones.
 */
export const BLOCK_RECORDS_MAX_BYTES = 50_000;

export interface BlockRecord extends WrittenBlock {
  /** When it was written (epoch ms): the oldest go first. */
  atMs?: number;
  /** What wrote it, as the caller gave it (the sidebar's report); absent in records written before it was kept. */
  report?: Record<string, unknown>;
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

/** Whether two blocks share a cell. */
export function blocksOverlap(a: WrittenBlock, b: WrittenBlock): boolean {
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
    const record = this.record(placement);
    if (!record) return undefined;
    const { atMs: _atMs, report: _report, ...block } = record;
    return block;
  }

  /** The whole record of the block last written at this place, with what wrote it. */
  record(placement: BlockPlacement): BlockRecord | undefined {
    return parseRecord(this.store.get(blockRecordKey(placement)));
  }

  /** The most recent record whose block shares a cell with `area` (one cell: the block that holds it). */
  find(area: WrittenBlock): BlockRecord | undefined {
    let found: BlockRecord | undefined;
    for (const [key, text] of Object.entries(this.store.entries())) {
      if (!key.startsWith(BLOCK_RECORD_PREFIX)) continue;
      const record = parseRecord(text);
      if (record && blocksOverlap(record, area) && (record.atMs ?? 0) >= (found?.atMs ?? -1)) found = record;
    }
    return found;
  }

  /**
   * Remembers a written block and what wrote it, and prunes the records it made stale; `sheetNames`
   * are the sheets that exist now.
   */
  remember(written: WrittenBlock, atMs: number, sheetNames: readonly string[], report?: Record<string, unknown>): void {
    const key = blockRecordKey(written);
    const text = JSON.stringify({ ...written, atMs, ...(report ? { report } : {}) } satisfies BlockRecord);
    this.store.set(key, text);
    const sheets = new Set(sheetNames);
    const kept: Array<{ key: string; atMs: number; bytes: number }> = [];
    for (const [other, value] of Object.entries(this.store.entries())) {
      if (!other.startsWith(BLOCK_RECORD_PREFIX) || other === key) continue;
      const record = parseRecord(value);
      if (!record || !sheets.has(record.sheetName) || blocksOverlap(record, written)) this.store.remove(other);
      else kept.push({ key: other, atMs: record.atMs ?? 0, bytes: utf8Length(other) + utf8Length(value) });
    }
    kept.sort((a, b) => b.atMs - a.atMs);
    let bytes = utf8Length(key) + utf8Length(text);
    kept.forEach((record, i) => {
      bytes += record.bytes;
      if (i >= MAX_BLOCK_RECORDS - 1 || bytes > BLOCK_RECORDS_MAX_BYTES) this.store.remove(record.key);
    });
  }
}
