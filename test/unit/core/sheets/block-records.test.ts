/**
 * BlockRecords: Run to sheet's `engage.block.*` document properties stay few. A record goes when a
 * later block covers any of its cells, when its sheet is gone, and beyond the 50 most recent.
 */
import { BLOCK_RECORD_PREFIX, BlockRecords, MAX_BLOCK_RECORDS, blockRecordKey } from '../../../../src/core/sheets/block-records';
import { FakeStore } from '../../../support/fakes';

const block = (sheetName: string, row: number, column: number, rows = 10, columns = 5) => ({ sheetName, row, column, rows, columns });
const recordKeys = (store: FakeStore) =>
  Object.keys(store.entries())
    .filter((k) => k.startsWith(BLOCK_RECORD_PREFIX))
    .sort();

describe('BlockRecords', () => {
  it('remembers a block by its place and gives it back as the previous block there', () => {
    const store = new FakeStore();
    const records = new BlockRecords(store);
    records.remember(block('Data', 1, 1), 1000, ['Data']);
    expect(records.previous({ sheetName: 'Data', row: 1, column: 1 })).toEqual(block('Data', 1, 1));
    expect(records.previous({ sheetName: 'Data', row: 2, column: 1 })).toBeUndefined();
    expect(store.get(blockRecordKey(block('Data', 1, 1)))).toBe(JSON.stringify({ ...block('Data', 1, 1), atMs: 1000 }));
  });

  it('drops the records of blocks a new block replaced, and keeps those beside it', () => {
    const store = new FakeStore();
    const records = new BlockRecords(store);
    records.remember(block('Data', 1, 1), 1, ['Data']);
    records.remember(block('Data', 100, 1), 2, ['Data']);
    records.remember(block('Other', 5, 3), 3, ['Data', 'Other']);
    // Rows 5 to 14, columns C to G: covers cells of the first block only.
    records.remember(block('Data', 5, 3), 4, ['Data', 'Other']);
    expect(recordKeys(store)).toEqual(
      [blockRecordKey(block('Data', 100, 1)), blockRecordKey(block('Data', 5, 3)), blockRecordKey(block('Other', 5, 3))].sort(),
    );
  });

  it('drops the records of sheets that were deleted or renamed', () => {
    const store = new FakeStore();
    const records = new BlockRecords(store);
    records.remember(block('Old', 1, 1), 1, ['Old']);
    records.remember(block('Kept', 1, 1), 2, ['Old', 'Kept']);
    records.remember(block('New', 1, 1), 3, ['Kept', 'New']);
    expect(recordKeys(store)).toEqual([blockRecordKey(block('Kept', 1, 1)), blockRecordKey(block('New', 1, 1))].sort());
  });

  it(`keeps at most ${MAX_BLOCK_RECORDS} records, the most recent`, () => {
    const store = new FakeStore();
    const records = new BlockRecords(store);
    const sheets = Array.from({ length: 70 }, (_, i) => `Report ${i}`);
    for (const [i, name] of sheets.entries()) records.remember(block(name, 1, 1), i, sheets);
    const kept = recordKeys(store);
    expect(kept).toHaveLength(MAX_BLOCK_RECORDS);
    expect(kept).toEqual(
      sheets
        .slice(-MAX_BLOCK_RECORDS)
        .map((name) => blockRecordKey(block(name, 1, 1)))
        .sort(),
    );
    // Other document properties are left alone.
    store.set('engage.sr.index', '[]');
    records.remember(block('Report 0', 1, 1), 100, sheets);
    expect(store.get('engage.sr.index')).toBe('[]');
    expect(recordKeys(store)).toHaveLength(MAX_BLOCK_RECORDS);
  });

  it('keeps what wrote a block, and finds the most recent block that holds a cell', () => {
    const store = new FakeStore();
    const records = new BlockRecords(store);
    const report = { kind: 'main', entityId: 'p1', breakdowns: ['day'], preset: 'last7' };
    records.remember(block('Data', 1, 1), 1, ['Data'], report);
    records.remember(block('Data', 20, 1), 2, ['Data']);
    expect(records.record({ sheetName: 'Data', row: 1, column: 1 })).toEqual({ ...block('Data', 1, 1), atMs: 1, report });
    expect(records.find({ ...block('Data', 5, 3), rows: 1, columns: 1 })).toMatchObject({ row: 1, report });
    expect(records.find({ ...block('Data', 25, 5), rows: 1, columns: 1 })).toMatchObject({ row: 20 });
    expect(records.find({ ...block('Data', 15, 1), rows: 1, columns: 1 })).toBeUndefined();
  });

  it('keeps the records within 50 KB, read as 50,000 bytes as the property limits are, dropping the oldest', () => {
    const store = new FakeStore();
    const records = new BlockRecords(store);
    const sheets = Array.from({ length: 40 }, (_, i) => `Report ${i}`);
    // A filter of 2,000 characters makes a record of about 2.1 KB.
    const report = { kind: 'main', entityId: 'p1', filter: `externalId:in:${'x'.repeat(1986)}` };
    for (const [i, name] of sheets.entries()) records.remember(block(name, 1, 1), i, sheets, report);
    const kept = recordKeys(store);
    const bytes = kept.reduce((sum, key) => sum + key.length + store.get(key)!.length, 0);
    expect(bytes).toBeLessThanOrEqual(50_000);
    expect(kept.length).toBeGreaterThan(20);
    expect(kept.length).toBeLessThan(40);
    expect(kept).toContain(blockRecordKey(block('Report 39', 1, 1)));
    expect(kept).not.toContain(blockRecordKey(block('Report 0', 1, 1)));
  });
});
