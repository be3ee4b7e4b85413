import { a1Cell, cellPosition, cellReference, rangeReference, splitCellReference } from '../../../../src/core/util/a1-notation';

describe('A1 notation', () => {
  it('names cells in A1 notation and splits sheet-qualified cells', () => {
    expect([a1Cell(1, 1), a1Cell(3, 2), a1Cell(10, 26), a1Cell(2, 27), a1Cell(5, 703)]).toEqual(['A1', 'B3', 'Z10', 'AA2', 'AAA5']);
    expect(splitCellReference('Sheet1!B3')).toEqual({ sheetName: 'Sheet1', cell: 'B3' });
    expect(splitCellReference("'It''s mine'!$c$12")).toEqual({ sheetName: "It's mine", cell: 'C12' });
    expect(splitCellReference('My data!D4')).toEqual({ sheetName: 'My data', cell: 'D4' });
    expect(splitCellReference('B3')).toBeUndefined();
  });

  it('reads the row and column of one cell, and nothing else', () => {
    expect([cellPosition('A1'), cellPosition('b3'), cellPosition(' AA2 '), cellPosition('AAA5')]).toEqual([
      { row: 1, column: 1 },
      { row: 3, column: 2 },
      { row: 2, column: 27 },
      { row: 5, column: 703 },
    ]);
    expect([cellPosition('A0'), cellPosition('AAAA1'), cellPosition('A1:B2'), cellPosition('')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('names a block’s range as Sheets does, quoting a sheet name that is not one plain word', () => {
    expect(rangeReference({ sheetName: 'Daily', row: 1, column: 1, rows: 9, columns: 8 })).toBe('Daily!A1:H9');
    expect(rangeReference({ sheetName: 'By country', row: 4, column: 3, rows: 1, columns: 1 })).toBe("'By country'!C4");
    expect(rangeReference({ sheetName: "It's mine", row: 2, column: 27, rows: 3, columns: 2 })).toBe("'It''s mine'!AA2:AB4");
  });
});

describe('cellReference', () => {
  it('quotes a sheet name where Sheets does: spaces, quotes, and plain words that read as a cell or a boolean', () => {
    expect(cellReference('Daily', 'a1')).toBe('Daily!A1');
    expect(cellReference('Daily scheduled', 'A1')).toBe("'Daily scheduled'!A1");
    expect(cellReference("Bob's", 'B2')).toBe("'Bob''s'!B2");
    for (const name of ['Q1', 'AB12', 'R1C1', 'RC', 'true', '2026']) expect(cellReference(name, 'A1')).toBe(`'${name}'!A1`);
    // Every reference reads back as the sheet and cell it names.
    for (const name of ['Daily', 'Daily scheduled', "Bob's", 'Q1'])
      expect(splitCellReference(cellReference(name, 'C3'))).toEqual({ sheetName: name, cell: 'C3' });
  });
});
