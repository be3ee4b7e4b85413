/**
 * A time-driven trigger's run without a document (the strict switch triggerWithoutDocument), and
 * other documents of the add-on opened by ID or URL. Google's reference: getDocumentLock,
 * getDocumentProperties and getDocumentCache return null "if this method is called outside of the
 * context of a containing document"; openById and openByUrl need the scope
 * https://www.googleapis.com/auth/spreadsheets; getUserTriggers(spreadsheet) "gets all installable
 * triggers owned by this user in the given document"; a trigger's event carries its triggerUid.
 */
import { createDeployment, createGasHost, type GasHost } from '../../../dev/gas-host';
import { missingDocument, NO_ACCESS_MESSAGE, scopeRefusal } from '../../../dev/gas-host/state/spreadsheets/documents';

const BUNDLE = `
function install() { return ScriptApp.newTrigger('hourly').timeBased().everyHours(1).create().getUniqueId(); }
function hourly(e) {
  var seen = {
    uid: e.triggerUid,
    active: SpreadsheetApp.getActiveSpreadsheet() === null ? 'null' : SpreadsheetApp.getActiveSpreadsheet().getId(),
    activeToo: SpreadsheetApp.getActive() === null ? 'null' : 'a spreadsheet',
    properties: PropertiesService.getDocumentProperties() === null ? 'null' : 'a store',
    cache: CacheService.getDocumentCache() === null ? 'null' : 'a cache',
    lock: LockService.getDocumentLock() === null ? 'null' : 'a lock',
    userProperties: PropertiesService.getUserProperties() === null ? 'null' : 'a store',
    userCache: CacheService.getUserCache() === null ? 'null' : 'a cache',
    userLock: LockService.getUserLock() === null ? 'null' : 'a lock'
  };
  try { SpreadsheetApp.getUi(); seen.ui = 'a ui'; } catch (err) { seen.ui = err.message; }
  PropertiesService.getUserProperties().setProperty('seen', JSON.stringify(seen));
}
function openAndWrite(id, text) {
  var other = SpreadsheetApp.openById(id);
  other.getSheetByName('Sheet1').getRange('A1').setValue(text);
  return [other.getId(), other.getName(), other.getUrl(), other.getRange('Sheet1!A1').getValue(), other.getSpreadsheetTimeZone()];
}
function openByUrlAndRead(url) { return SpreadsheetApp.openByUrl(url).getSheetByName('Sheet1').getRange('A1').getValue(); }
function tryOpen(id) { try { SpreadsheetApp.openById(id); return 'opened'; } catch (err) { return err.message; } }
function triggersIn(id) {
  return ScriptApp.getUserTriggers(SpreadsheetApp.openById(id)).map(function (t) { return t.getUniqueId(); });
}
function allTriggers() { return ScriptApp.getProjectTriggers().map(function (t) { return t.getUniqueId(); }); }
/** @customfunction */
function READ_OTHER(id) { return SpreadsheetApp.openById(id).getName(); }
`;

const OWNER = 'ann@example.com';
const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const CURRENT_ONLY = 'https://www.googleapis.com/auth/spreadsheets.currentonly';

function documents(options: { strict?: boolean; scopes?: string[] } = {}) {
  const deployment = createDeployment({ clock: 'virtual', startTime: Date.UTC(2026, 10, 20, 12) });
  const manifest = options.scopes ? { manifest: { oauthScopes: options.scopes } } : {};
  const open = (documentId: string, spreadsheetName: string, owner = OWNER): GasHost => {
    const host = createGasHost({
      deployment,
      documentId,
      spreadsheetName,
      owner,
      timeZone: 'Europe/Berlin',
      strict: { triggerWithoutDocument: options.strict ?? false },
      ...manifest,
    });
    host.load(BUNDLE);
    return host;
  };
  return { deployment, a: open('doc-a', 'Sales'), b: open('doc-b', 'Costs') };
}

const seen = (host: GasHost) => JSON.parse(host.properties('user', OWNER).get('seen') ?? '{}') as Record<string, string>;

describe('a time-driven trigger run', () => {
  it('has no document in the strict reading: the active spreadsheet and the document services are null, getUi throws', () => {
    const { a } = documents({ strict: true });
    const uid = a.call('install', [], { user: OWNER }) as string;
    const [run] = a.advanceTime(3_600_000);
    expect(run).toMatchObject({ ok: true, handlerFunction: 'hourly' });
    expect(a.strict.triggerWithoutDocument).toBe(true);
    expect(seen(a)).toEqual({
      uid,
      active: 'null',
      activeToo: 'null',
      properties: 'null',
      cache: 'null',
      lock: 'null',
      userProperties: 'a store',
      userCache: 'a cache',
      userLock: 'a lock',
      ui: 'Cannot call SpreadsheetApp.getUi() from this context.',
    });
  });

  it('has no document in a worker either (runs of several documents at once)', async () => {
    const { a } = documents({ strict: true });
    a.call('install', [], { user: OWNER });
    a.clock.advance(3_600_000);
    const [run] = await a.runDueTriggersConcurrently();
    await a.close();
    expect(run).toMatchObject({ ok: true });
    expect(seen(a)).toMatchObject({ active: 'null', properties: 'null', cache: 'null', lock: 'null', userLock: 'a lock' });
  });

  it('has the document whose trigger it is in the kind reading, as before', () => {
    const { a } = documents({ strict: false });
    const uid = a.call('install', [], { user: OWNER }) as string;
    a.advanceTime(3_600_000);
    expect(seen(a)).toMatchObject({
      uid,
      active: 'doc-a',
      activeToo: 'a spreadsheet',
      properties: 'a store',
      cache: 'a cache',
      lock: 'a lock',
    });
    // A trigger's run has no editor UI in either reading.
    expect(seen(a).ui).toBe('Cannot call SpreadsheetApp.getUi() from this context.');
  });

  it('is the only execution without a document: a sidebar call in the strict reading has its document', () => {
    const { a } = documents({ strict: true });
    a.call('hourly', [{ triggerUid: 'none' }], { user: OWNER });
    expect(seen(a)).toMatchObject({ active: 'doc-a', properties: 'a store', lock: 'a lock' });
  });
});

describe('SpreadsheetApp.openById and openByUrl', () => {
  it('open another document of the add-on, which the script reads and writes, with its id, name and URL', () => {
    const { a, b } = documents({ scopes: [SPREADSHEETS] });
    expect(a.call('openAndWrite', ['doc-b', 'from a'], { user: OWNER })).toEqual([
      'doc-b',
      'Costs',
      'https://docs.google.com/spreadsheets/d/doc-b/edit',
      'from a',
      'Europe/Berlin',
    ]);
    expect(b.getCell('Sheet1', 'A1').value).toBe('from a');
    expect(a.getCell('Sheet1', 'A1').value).toBe('');
    expect(a.call('openByUrlAndRead', ['https://docs.google.com/spreadsheets/d/doc-b/edit#gid=0'], { user: OWNER })).toBe('from a');
  });

  it('open documents by ID from a trigger run without a document', () => {
    const { a, b } = documents({ strict: true, scopes: [SPREADSHEETS] });
    const outcome = a.run('openAndWrite', ['doc-b', 'by the trigger'], { user: OWNER, withoutDocument: true });
    expect(outcome.ok).toBe(true);
    expect(b.getCell('Sheet1', 'A1').value).toBe('by the trigger');
    // Its own document too: by ID it is a document of the add-on like any other.
    expect(a.run('openAndWrite', ['doc-a', 'by ID'], { user: OWNER, withoutDocument: true }).ok).toBe(true);
    expect(a.getCell('Sheet1', 'A1').value).toBe('by ID');
  });

  it('are refused with only spreadsheets.currentonly in the manifest, as Apps Script words it', () => {
    const { a, b } = documents({ scopes: [CURRENT_ONLY] });
    expect(a.call('tryOpen', ['doc-b'], { user: OWNER })).toBe(scopeRefusal('SpreadsheetApp.openById'));
    expect(() => a.call('openByUrlAndRead', ['https://docs.google.com/spreadsheets/d/doc-b/edit'], { user: OWNER })).toThrow(
      `You do not have permission to call SpreadsheetApp.openByUrl. Required permissions: ${SPREADSHEETS}`,
    );
    expect(b.getCell('Sheet1', 'A1').value).toBe('');
  });

  it("refuse a user who is neither the document's owner nor an editor, until it is shared with them", () => {
    const { deployment } = documents();
    const bobs = createGasHost({ deployment, documentId: 'doc-bob', owner: 'bob@example.com' });
    const a = createGasHost({ deployment, documentId: 'doc-c', owner: OWNER });
    a.load(BUNDLE);
    expect(a.call('tryOpen', ['doc-bob'], { user: OWNER })).toBe(NO_ACCESS_MESSAGE);
    bobs.shareWith(OWNER);
    expect(a.call('tryOpen', ['doc-bob'], { user: OWNER })).toBe('opened');
    bobs.removeAccess(OWNER);
    expect(a.call('tryOpen', ['doc-bob'], { user: OWNER })).toBe(NO_ACCESS_MESSAGE);
  });

  it('count a user who ran something in a document as its editor, until their access is removed', () => {
    const { a, b } = documents();
    const cy = 'cy@example.com';
    expect(a.call('tryOpen', ['doc-b'], { user: cy })).toBe(NO_ACCESS_MESSAGE);
    b.call('tryOpen', ['doc-a'], { user: cy });
    expect(a.call('tryOpen', ['doc-b'], { user: cy })).toBe('opened');
    b.removeAccess(cy);
    b.call('tryOpen', ['doc-a'], { user: cy });
    expect(a.call('tryOpen', ['doc-b'], { user: cy })).toBe(NO_ACCESS_MESSAGE);
  });

  it('refuse a document in the trash, or one that never was, and its triggers are gone', () => {
    const { a, b } = documents();
    b.call('install', [], { user: OWNER });
    expect(b.triggers).toHaveLength(1);
    b.deleteDocument();
    expect(a.call('tryOpen', ['doc-b'], { user: OWNER })).toBe(missingDocument('doc-b'));
    expect(a.call('tryOpen', ['no-such-document'], { user: OWNER })).toBe(missingDocument('no-such-document'));
    expect(b.triggers).toHaveLength(0);
  });

  it("take a user's triggers in the document with their access", () => {
    const { a, b } = documents();
    const cy = 'cy@example.com';
    b.shareWith(cy);
    b.call('install', [], { user: cy });
    b.call('install', [], { user: OWNER });
    b.removeAccess(cy);
    expect(b.triggers.map((t) => t.user)).toEqual([OWNER]);
    expect(a.call('tryOpen', ['doc-b'], { user: OWNER })).toBe('opened');
  });

  it('are not for custom functions, which "cannot open other spreadsheets"', () => {
    const { a } = documents();
    expect(a.evaluateFormula('Sheet1', 'B2', '=READ_OTHER("doc-b")').error).toBe(
      'You do not have permission to call SpreadsheetApp.openById',
    );
  });
});

describe('ScriptApp.getUserTriggers(spreadsheet) and getProjectTriggers()', () => {
  it("list the user's triggers in the given document, and in every document", () => {
    const { a, b } = documents();
    const inA = a.call('install', [], { user: OWNER }) as string;
    const inB = b.call('install', [], { user: OWNER }) as string;
    expect(a.call('triggersIn', ['doc-a'], { user: OWNER })).toEqual([inA]);
    expect(a.call('triggersIn', ['doc-b'], { user: OWNER })).toEqual([inB]);
    expect(a.call('allTriggers', [], { user: OWNER })).toEqual([inA, inB]);
    expect(a.call('allTriggers', [], { user: 'cy@example.com' })).toEqual([]);
  });
});
