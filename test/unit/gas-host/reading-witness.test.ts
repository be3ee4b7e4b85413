/**
 * Where the local host's two readings part (dev/gas-host/protocol/strict.ts, ReadingWitness): with
 * GAS_HOST_READINGS_FILE set, a host notes each switch the environment decides whose readings would act
 * differently where it was read, and nothing where they act alike; and the strict pass
 * (scripts/strict-pass.ts) runs again the suites that noted one or read the reading themselves.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGasHost } from '../../../dev/gas-host';
import { READINGS_FILE_ENV } from '../../../dev/gas-host/protocol/strict';
import { readingsFileOf, strictSuites } from '../../../scripts/strict-pass';

const BUNDLE = `
function install() { ScriptApp.newTrigger('hourly').timeBased().everyHours(1).create(); }
function hourly() {}
function write(a1, value) { SpreadsheetApp.getActiveSheet().getRange(a1).setValue(value); }
function plain() { return 1; }
/** @customfunction */
function ECHO(v) { return v; }
`;
const MANIFEST = {
  oauthScopes: ['https://www.googleapis.com/auth/script.scriptapp', 'https://www.googleapis.com/auth/spreadsheets.currentonly'],
};

let dir: string;
let file: string;
const noted = () => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).sort();
  } catch {
    return [];
  }
};

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'readings-'));
  file = path.join(dir, 'notes.txt');
  process.env[READINGS_FILE_ENV] = file;
});
afterEach(() => {
  delete process.env[READINGS_FILE_ENV];
  rmSync(dir, { recursive: true, force: true });
});

describe("the host's reading witness", () => {
  it('notes nothing where both readings act alike: plain text and numbers written, a custom function with literal arguments', () => {
    const host = createGasHost();
    host.load(BUNDLE);
    host.call('write', ['A1', 'Daily Planet']);
    host.call('write', ['A2', '1234.5']);
    host.call('write', ['A3', 'true']);
    expect(host.evaluateFormula(undefined, 'B1', '=ECHO("x")').values).toEqual([['x']]);
    expect(noted()).toEqual([]);
  });

  it('notes each place the readings part: text read as a value, a function that is not @customfunction, TODAY() as an argument, a clock trigger, a withheld scope', () => {
    const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), manifest: MANIFEST });
    host.load(BUNDLE);
    host.call('write', ['A1', '$5']);
    expect(noted()).toEqual(['textParsedAsTyped']);
    host.evaluateFormula(undefined, 'B1', '=PLAIN()');
    host.evaluateFormula(undefined, 'B2', '=ECHO(TODAY())');
    host.call('install');
    host.advanceTime(3_600_000);
    host.grantScopes('owner@example.com', [MANIFEST.oauthScopes[1]!]);
    expect(noted()).toEqual(['anyFunctionAsFormula', 'partialConsent', 'textParsedAsTyped', 'triggerWithoutDocument', 'volatileToday']);
  });

  it('notes no switch its option fixes: such a host runs alike in both passes', () => {
    const host = createGasHost({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12), strict: { textParsedAsTyped: false } });
    host.load(BUNDLE);
    host.call('write', ['A1', '$5']);
    host.call('install');
    host.advanceTime(3_600_000);
    expect(noted()).toEqual(['triggerWithoutDocument']);
    const fixed = createGasHost({ strict: true });
    fixed.load(BUNDLE);
    fixed.call('write', ['A1', '$5']);
    fixed.evaluateFormula(undefined, 'B1', '=PLAIN()');
    expect(noted()).toEqual(['triggerWithoutDocument']);
  });
});

describe('the strict pass', () => {
  it('runs again the suites that noted a switch or read the reading, and none other; all of them without notes', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'suites-'));
    try {
      mkdirSync(path.join(root, 'test/e2e'), { recursive: true });
      mkdirSync(path.join(root, 'test/evidence'), { recursive: true });
      const suite = (name: string, body = 'it("runs", () => {});') => writeFileSync(path.join(root, name), body);
      suite('test/e2e/triggers.test.ts');
      suite('test/e2e/plain.test.ts');
      suite('test/evidence/reads.test.ts', 'const strict = process.env.GAS_HOST_STRICT === "1";');
      suite('test/e2e/refresh-waves.test.ts');
      expect(strictSuites(root, 'notes')).toBeUndefined();
      mkdirSync(path.join(root, 'notes'));
      writeFileSync(
        path.join(root, 'notes', readingsFileOf(path.join('test', 'e2e', 'triggers.test.ts'))),
        'triggerWithoutDocument\ntriggerWithoutDocument\n',
      );
      writeFileSync(path.join(root, 'notes', readingsFileOf(path.join('test', 'e2e', 'refresh-waves.test.ts'))), 'volatileToday\n');
      expect(strictSuites(root, 'notes')).toEqual([
        { file: path.join('test', 'e2e', 'triggers.test.ts'), why: 'triggerWithoutDocument' },
        { file: path.join('test', 'evidence', 'reads.test.ts'), why: 'reads the reading' },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
