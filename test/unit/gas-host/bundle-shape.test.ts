import { createGasHost } from '../../../dev/gas-host';

// The shape scripts/build.ts emits: an esbuild IIFE under a global name plus top-level JSDoc stubs.
const IIFE_BUNDLE = `
var __engage = (() => {
  var exports = {};
  function memo() { return CacheService.getDocumentCache(); }
  exports.ENGAGE_ECHO = function (value) { var c = memo(); c.put('last', String(value), 60); return [['value'], [value]]; };
  exports.onOpen = function (e) { SpreadsheetApp.getUi().createAddonMenu().addItem('Open sidebar', 'openSidebar').addToUi(); };
  return exports;
})();
/** Echoes its argument. @customfunction */
function ENGAGE_ECHO(value) { return __engage.ENGAGE_ECHO.apply(this, arguments); }
function onOpen(e) { return __engage.onOpen.apply(this, arguments); }
`;

describe('a bundle built as IIFE plus stubs', () => {
  it('loads in NONE, adds its menu, and serves custom functions through the stubs', async () => {
    const host = createGasHost();
    host.load(IIFE_BUNDLE);
    expect(host.open({ authMode: 'NONE' }).ok).toBe(true);
    expect(host.menus[0]!.items).toEqual([{ caption: 'Open sidebar', functionName: 'openSidebar' }]);
    expect(host.evaluateFormula(undefined, 'A1', '=ENGAGE_ECHO(42)').values).toEqual([['value'], [42]]);
    host.setCell(undefined, 'C1', '=ENGAGE_ECHO("x")');
    try {
      const [result] = await host.recalculate();
      expect(result!.values).toEqual([['value'], ['x']]);
      expect(host.counters['Cache.put']).toBe(2);
    } finally {
      await host.close();
    }
  });

  it('replaces the bundle on a second load', () => {
    const host = createGasHost();
    host.load('function VERSION() { return 1; }');
    host.load('function VERSION() { return 2; }');
    expect(host.call('VERSION')).toBe(2);
  });
});
