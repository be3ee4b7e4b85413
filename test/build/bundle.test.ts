/**
 * The built bundle is something Apps Script accepts: a plain ES2020 script whose top level declares
 * one stub per entry point, carrying the entry point's JSDoc, and whose module scope calls no service.
 * These tests read dist/ as the build writes it (jest's global setup builds it for the tests' deployment first).
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import * as acorn from 'acorn';
import { readEntryPointDocs } from '../../scripts/entry-stubs';
import { defaultMetrics, REPORT_SPECS } from '../../src/core';
import { distCode, repoRoot } from '../support/paths';

const code = fs.readFileSync(distCode, 'utf8');
const docs = readEntryPointDocs(path.join(repoRoot, 'src/entrypoints'));

const APPS_SCRIPT_SERVICES = [
  'SpreadsheetApp',
  'UrlFetchApp',
  'PropertiesService',
  'CacheService',
  'LockService',
  'ScriptApp',
  'HtmlService',
  'Session',
  'Utilities',
  'Logger',
  'MailApp',
  'DriveApp',
  'Browser',
  'ContentService',
];

/** A context where touching any Apps Script service throws, as it would in a mode that forbids it. */
function contextWhereEveryServiceThrows(overrides: Record<string, unknown> = {}): vm.Context {
  const sandbox: Record<string, unknown> = { console };
  for (const name of APPS_SCRIPT_SERVICES) {
    Object.defineProperty(sandbox, name, {
      get() {
        throw new Error(`You do not have permission to call ${name}`);
      },
      configurable: true,
    });
  }
  for (const [name, value] of Object.entries(overrides)) {
    Object.defineProperty(sandbox, name, { value, configurable: true });
  }
  return vm.createContext(sandbox);
}

function exportedNames(): string[] {
  const ctx = contextWhereEveryServiceThrows();
  vm.runInContext(code, ctx);
  return Object.keys(vm.runInContext('__engage', ctx) as object);
}

function topLevelFunctions(): Map<string, { params: string[]; leadingComment: string }> {
  const comments: acorn.Comment[] = [];
  const program = acorn.parse(code, { ecmaVersion: 2020, sourceType: 'script', onComment: comments });
  const found = new Map<string, { params: string[]; leadingComment: string }>();
  for (const node of program.body) {
    if (node.type !== 'FunctionDeclaration' || !node.id) continue;
    const before = comments.filter((c) => c.type === 'Block' && c.end <= node.start).pop();
    const gap = before ? code.slice(before.end, node.start) : 'x';
    found.set(node.id.name, {
      params: node.params.map((p) => (p.type === 'Identifier' ? p.name : '?')),
      leadingComment: before && gap.trim() === '' ? `/*${before.value}*/` : '',
    });
  }
  return found;
}

describe('dist/Code.js', () => {
  it('parses as a plain ES2020 script (no import, export, import.meta or top-level await)', () => {
    expect(() => acorn.parse(code, { ecmaVersion: 2020, sourceType: 'script' })).not.toThrow();
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code).not.toContain('import.meta');
  });

  it('declares a top-level stub for every exported entry point, and nothing else at the top level', () => {
    const names = exportedNames();
    expect(names).toEqual(expect.arrayContaining(['onOpen', 'onInstall', 'showSidebar']));
    expect([...topLevelFunctions().keys()].sort()).toEqual([...names].sort());
  });

  it('gives every stub the JSDoc and parameter names of the function it forwards to', () => {
    const stubs = topLevelFunctions();
    for (const name of exportedNames()) {
      const doc = docs.get(name);
      expect(doc).toBeDefined();
      expect(stubs.get(name)?.leadingComment).toBe(doc!.jsdoc);
      expect(stubs.get(name)?.params).toEqual(doc!.params);
    }
  });

  it('keeps @customfunction on the stubs of custom functions so Sheets offers autocomplete', () => {
    const stubs = topLevelFunctions();
    const custom = [...docs.values()].filter((d) => d.jsdoc.includes('@customfunction'));
    expect(custom.map((d) => d.name).sort()).toEqual([
      'ENGAGE_COMPARE',
      'ENGAGE_COUNTRIES',
      'ENGAGE_EXPLAIN',
      'ENGAGE_EXTERNALID_REPORT',
      'ENGAGE_NATIVEAPPS',
      'ENGAGE_PUBLISHERS',
      'ENGAGE_REALTIME_REPORT',
      'ENGAGE_RECOMMENDATIONS',
      'ENGAGE_REPORT',
      'ENGAGE_TIMEZONES',
      'ENGAGE_VERSION',
      'ENGAGE_WIDGETS',
    ]);
    for (const doc of custom) {
      expect(stubs.get(doc.name)?.leadingComment).toContain('@customfunction');
      expect(doc.name).toMatch(/^[A-Z][A-Z0-9_]*[A-Z0-9]$/);
    }
  });

  it("puts each tag of a stub's JSDoc on one line, joining the lines the source wraps a tag over", () => {
    const source = fs.readFileSync(path.join(repoRoot, 'src/entrypoints/custom-functions.ts'), 'utf8');
    // The source wraps some @param lines (a continuation line starts with ' *   ').
    expect(source.match(/^ \* {3}\S/gm)?.length).toBeGreaterThan(0);
    const stubs = topLevelFunctions();
    for (const { leadingComment } of stubs.values()) {
      const lines = leadingComment.split('\n');
      const tags = lines.slice(
        lines.findIndex((line) => line.startsWith(' * @')),
        -1,
      );
      expect(tags.filter((line) => !line.startsWith(' * @'))).toEqual([]);
    }
    expect(stubs.get('ENGAGE_REPORT')!.leadingComment.split('\n')).toContain(
      ' * @param {string|range} breakdowns Optional. Up to 4 of day, month, platform, referrer, country, section, widget, doc, partnerApp, ' +
        'as "day,country" or a range. Default day.',
    );
  });

  it("names in each report's metrics help the default set in the order of its columns", () => {
    const stubs = topLevelFunctions();
    const metricsHelp = (name: string) => stubs.get(name)!.leadingComment.match(/@param \{string\|range\} metrics (.*)/)![1]!;
    const defaultList = (help: string) =>
      help
        .match(/Default ([\w, ]+?)[.(]/)![1]!
        .trim()
        .split(', ');
    expect(defaultList(metricsHelp('ENGAGE_REPORT'))).toEqual(defaultMetrics('main', REPORT_SPECS.main.defaultBreakdowns));
    expect(defaultList(metricsHelp('ENGAGE_EXTERNALID_REPORT'))).toEqual(
      defaultMetrics('externalId', REPORT_SPECS.externalId.defaultBreakdowns),
    );
    const realtime = metricsHelp('ENGAGE_REALTIME_REPORT');
    expect(realtime).toContain(`Some of ${REPORT_SPECS.realtime.metrics.join(', ')}, as`);
    expect(realtime).toContain('Default all six.');
    expect(defaultMetrics('realtime', REPORT_SPECS.realtime.defaultBreakdowns)).toEqual(REPORT_SPECS.realtime.metrics);
    // Every report takes "all".
    for (const name of ['ENGAGE_REPORT', 'ENGAGE_EXTERNALID_REPORT', 'ENGAGE_REALTIME_REPORT'])
      expect(metricsHelp(name)).toContain('or "all"');
  });

  it('loads in a context where every Apps Script service throws on access (module scope calls none)', () => {
    const ctx = contextWhereEveryServiceThrows();
    expect(() => vm.runInContext(code, ctx)).not.toThrow();
    expect(typeof vm.runInContext('onOpen', ctx)).toBe('function');
  });

  it('adds the add-on menu from onOpen in AuthMode.NONE, touching only the UI', () => {
    const added: string[][] = [];
    const menu = {
      items: [] as string[][],
      addItem(caption: string, fn: string) {
        this.items.push([caption, fn]);
        return this;
      },
      addSeparator() {
        return this;
      },
      addSubMenu() {
        return this;
      },
      addToUi() {
        added.push(...this.items);
      },
    };
    const ui = { createAddonMenu: () => menu, createMenu: () => menu };
    const spreadsheetAppForNone = new Proxy(
      {},
      {
        get(_t, prop) {
          if (prop === 'getUi') return () => ui;
          if (prop === 'AuthMode' || prop === 'toJSON' || typeof prop === 'symbol') return undefined;
          throw new Error(`You do not have permission to call SpreadsheetApp.${String(prop)} in AuthMode.NONE`);
        },
      },
    );
    const ctx = contextWhereEveryServiceThrows({ SpreadsheetApp: spreadsheetAppForNone });
    vm.runInContext(code, ctx);
    (vm.runInContext('onOpen', ctx) as (e: unknown) => void)({ authMode: 'NONE' });
    expect(added.map(([caption]) => caption)).toContain('Open sidebar');
    const names = exportedNames();
    for (const [, fn] of added) expect(names).toContain(fn);
  });
});

describe("the bundle's shared state", () => {
  it('uses nothing every user of the published add-on shares: no script lock, script cache or script properties (docs/shared-state.md)', () => {
    for (const scriptWide of ['getScriptLock', 'getScriptCache', 'getScriptProperties']) expect(code).not.toContain(scriptWide);
    // What it does use: user and document scopes.
    for (const scoped of ['getUserLock', 'getDocumentLock', 'getDocumentCache', 'getUserProperties', 'getDocumentProperties'])
      expect(code).toContain(scoped);
  });
});
