/**
 * Reading a formula's text back (formula-reading.ts) and the comparison an ENGAGE_COMPARE cell holds
 * (compare-at-cell.ts): quoted text with doubled quotes, numbers, empty arguments, references and
 * calculations told apart, semicolons as separators where the locale uses them (with decimal commas),
 * separators inside quotes and brackets kept; and the builder's request of the comparison, or the
 * sentence naming each argument that could not be read. ENGAGE_EXPLAIN's formula written from that
 * request is the comparison's periods, compareWith and filter.
 */
import { comparisonAtCell, isCompareFormula } from '../../../../src/core/builder/compare-at-cell';
import { explainFormula } from '../../../../src/core/builder/explain-formula';
import { readFormulaCall } from '../../../../src/core/builder/formula-reading';

const AT = { sheetName: 'Sheet1', row: 3, column: 2 };

describe('readFormulaCall', () => {
  it('reads text, numbers, empty arguments, references and calculations', () => {
    const call = readFormulaCall(
      `=engage_compare("p1","2026-11-01", "say ""hi"", a;b" ,,12.5, -3,B2,$C$4,Sheet2!A1:B2,'My ''s'!B2,EngageRefresh,TODAY()-7,"a"&B1,DATE(2026,1,1),TRUE,{1,2})`,
    )!;
    expect(call.name).toBe('ENGAGE_COMPARE');
    expect(call.args.map((a) => a.kind)).toEqual([
      'text',
      'text',
      'text',
      'empty',
      'number',
      'number',
      'reference',
      'reference',
      'reference',
      'reference',
      'reference',
      'expression',
      'expression',
      'expression',
      'expression',
      'expression',
    ]);
    expect(call.args[2]).toEqual({ kind: 'text', value: 'say "hi", a;b', source: '"say ""hi"", a;b"' });
    expect(call.args[4]).toMatchObject({ value: 12.5 });
    expect(call.args[5]).toMatchObject({ value: -3 });
    expect(call.args[9]!.source).toBe("'My ''s'!B2");
    expect(call.args[12]!.source).toBe('"a"&B1');
  });

  it('reads semicolons as separators, with decimal commas, in the locales that use them', () => {
    const call = readFormulaCall('=ENGAGE_COMPARE("p1";"7daysAgo";"yesterday";"previous";;"revenue,rpmByPvs";"widget:eq:a;b";;1,5;B2)')!;
    expect(call.args.map((a) => (a.kind === 'text' || a.kind === 'number' ? a.value : a.kind))).toEqual([
      'p1',
      '7daysAgo',
      'yesterday',
      'previous',
      'empty',
      'revenue,rpmByPvs',
      'widget:eq:a;b',
      'empty',
      1.5,
      'reference',
    ]);
    // Semicolons inside an array literal's braces are not separators in a comma locale.
    expect(readFormulaCall('=F({1;2},"a")')!.args.map((a) => a.source)).toEqual(['{1;2}', '"a"']);
  });

  it('reads only a formula that is one call', () => {
    expect(readFormulaCall('=F()')).toEqual({ name: 'F', args: [] });
    expect(readFormulaCall(' = F ( "a" ) ')!.args).toHaveLength(1);
    for (const text of ['=F(1)+G(2)', '=F("a', '=F(1', 'F(1)', '=1+2', '', '=F(1))', '=IFERROR(F(1),"")+1'])
      expect(readFormulaCall(text)).toBeUndefined();
    expect(readFormulaCall('=IFERROR(ENGAGE_COMPARE("p1"),"")')!.name).toBe('IFERROR');
  });
});

describe('comparisonAtCell', () => {
  it('reads the comparison as the builder’s request, and writes ENGAGE_EXPLAIN of the same periods and filter', () => {
    const found = comparisonAtCell(
      '=ENGAGE_COMPARE("p1","7daysAgo","yesterday","previous","day,widget","revenue,rpmByPvs","platform:eq:Desktop","","","EUR",2,EngageRefresh)',
      AT,
      10,
    )!;
    expect(found).toEqual({
      cell: 'Sheet1!B3',
      beside: { sheetName: 'Sheet1', cell: 'M3' },
      request: {
        kind: 'main',
        entityId: 'p1',
        fromDate: '7daysAgo',
        toDate: 'yesterday',
        breakdowns: [],
        compareWith: 'previous',
        filter: 'platform:eq:Desktop',
      },
      breakdowns: ['day', 'widget'],
      metrics: ['revenue', 'rpmByPvs'],
    });
    expect(explainFormula(found.request!, { metric: 'revenue', breakdowns: ['widget'] }, 'EngageRefresh')).toBe(
      '=ENGAGE_EXPLAIN("p1","7daysAgo","yesterday","previous","revenue","widget","","platform:eq:Desktop",EngageRefresh)',
    );
  });

  it('reads a semicolon formula with explicit periods and no filter', () => {
    const found = comparisonAtCell('=ENGAGE_COMPARE("p1";"2026-11-08";"2026-11-14";"2026-11-01..2026-11-07")', AT, 1)!;
    expect(found.request).toEqual({
      kind: 'main',
      entityId: 'p1',
      fromDate: '2026-11-08',
      toDate: '2026-11-14',
      breakdowns: [],
      compareWith: '2026-11-01..2026-11-07',
    });
    expect(found.beside.cell).toBe('D3');
    expect(found.breakdowns).toEqual([]);
  });

  it('names each argument it cannot read, a reference or a calculation, and gives no request', () => {
    const found = comparisonAtCell('=ENGAGE_COMPARE("p1",B1,TODAY()-1,"previous","widget",C1,D1)', AT, 6)!;
    expect(found.request).toBeUndefined();
    expect(found.problem).toBe(
      `Explain the change reads the comparison's arguments as written in its formula, and cannot read fromDate (the cell reference B1), toDate (the calculation TODAY()-1) or filter (the cell reference D1): write them in the formula as text (such as "2026-11-01", "7daysAgo" or "previous"), or build the comparison in the builder below.`,
    );
    // Metrics are the pickers' start only: a reference there is no problem.
    expect(comparisonAtCell('=ENGAGE_COMPARE("p1","7daysAgo","yesterday","previous","widget",C1)', AT, 6)!.request).toBeDefined();
    expect(comparisonAtCell('=ENGAGE_COMPARE("p1","7daysAgo","yesterday",,"widget")', AT, 6)!.problem).toBe(
      'The ENGAGE_COMPARE in this cell gives no compareWith: it needs entityId, fromDate, toDate and compareWith.',
    );
    expect(comparisonAtCell('=ENGAGE_COMPARE("p1")', AT, 1)!.problem).toMatch(/gives no fromDate, toDate or compareWith:/);
  });

  it('is undefined for any other formula', () => {
    expect(comparisonAtCell('=ENGAGE_REPORT("p1","7daysAgo","yesterday")', AT, 1)).toBeUndefined();
    expect(comparisonAtCell('=IFERROR(ENGAGE_COMPARE("p1","a","b","previous"),"")', AT, 1)).toBeUndefined();
    expect(isCompareFormula(' =engage_compare ("p1")')).toBe(true);
    expect(isCompareFormula('=ENGAGE_COMPARES(1)')).toBe(false);
    expect(isCompareFormula('=ENGAGE_REPORT(1)')).toBe(false);
  });
});
