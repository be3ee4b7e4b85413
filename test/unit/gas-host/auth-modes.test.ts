import { createGasHost } from '../../../dev/gas-host';

const MENU_BUNDLE = `
function onOpen(e) {
  SpreadsheetApp.getUi().createAddonMenu().addItem('Open sidebar', 'showSidebar').addSeparator().addItem('Sign out', 'signOut').addToUi();
}
function readDocument() { return SpreadsheetApp.getActive().getName(); }
function readProperties() { return PropertiesService.getUserProperties().getProperty('x'); }
function fetchSomething() { return UrlFetchApp.fetch('http://127.0.0.1:1/'); }
function showSidebar() { SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutputFromFile('sidebar').setTitle('Engage')); }
function sendMail() { MailApp.sendEmail('a@example.com', 's', 'b'); }
function whoAmI() { return Session.getActiveUser().getEmail(); }
function modeOf(e) { return e.authMode === ScriptApp.AuthMode.NONE ? 'none' : String(e.authMode); }
`;

describe('auth modes', () => {
  it('runs onOpen in NONE and records the add-on menu', () => {
    const host = createGasHost({ addOnName: 'Engage' });
    host.load(MENU_BUNDLE);
    expect(host.open({ authMode: 'NONE' }).ok).toBe(true);
    expect(host.menus).toEqual([
      {
        title: 'Engage',
        addon: true,
        items: [
          { caption: 'Open sidebar', functionName: 'showSidebar' },
          { separator: true },
          { caption: 'Sign out', functionName: 'signOut' },
        ],
      },
    ]);
  });

  it('fails to load a bundle whose top level calls a service, as onOpen in NONE would', () => {
    const host = createGasHost();
    expect(() => host.load('var props = PropertiesService.getUserProperties(); function onOpen() {}')).toThrow(
      'You do not have permission to call PropertiesService.getUserProperties',
    );
  });

  it('runs the top level again in the mode of each call', () => {
    const host = createGasHost();
    host.load('var TOP = Session.getScriptTimeZone(); function tz() { return TOP; }');
    expect(host.call('tz', [], { authMode: 'FULL' })).toBe('America/New_York');
  });

  it('denies document and properties in NONE', () => {
    const host = createGasHost();
    host.load(MENU_BUNDLE);
    expect(() => host.call('readDocument', [], { authMode: 'NONE' })).toThrow(
      'You do not have permission to call SpreadsheetApp.getActive',
    );
    expect(() => host.call('readProperties', [], { authMode: 'NONE' })).toThrow(
      'You do not have permission to call PropertiesService.getUserProperties',
    );
  });

  it('allows the document but not UrlFetch or the sidebar in LIMITED', () => {
    const host = createGasHost({ spreadsheetName: 'Budget', htmlFiles: { sidebar: '<p>hi</p>' } });
    host.load(MENU_BUNDLE);
    expect(host.call('readDocument', [], { authMode: 'LIMITED' })).toBe('Budget');
    expect(() => host.call('fetchSomething', [], { authMode: 'LIMITED' })).toThrow('You do not have permission to call UrlFetchApp.fetch');
    expect(() => host.call('showSidebar', [], { authMode: 'LIMITED' })).toThrow('You do not have permission to call Ui.showSidebar');
  });

  it('denies services outside the custom-function list in CUSTOM_FUNCTION', () => {
    const host = createGasHost();
    host.load(MENU_BUNDLE);
    expect(() => host.call('sendMail', [], { authMode: 'CUSTOM_FUNCTION' })).toThrow(
      'You do not have permission to call MailApp.sendEmail',
    );
    expect(() => host.call('whoAmI', [], { authMode: 'CUSTOM_FUNCTION' })).toThrow(
      'You do not have permission to call Session.getActiveUser',
    );
    // A formula has no editor UI to reach: Apps Script's words for it, as users report them.
    expect(() => host.call('showSidebar', [], { authMode: 'CUSTOM_FUNCTION' })).toThrow(
      'Cannot call SpreadsheetApp.getUi() from this context.',
    );
    expect(host.call('readDocument', [], { authMode: 'CUSTOM_FUNCTION' })).toBe('Untitled spreadsheet');
  });

  it('allows everything in FULL and records the sidebar', () => {
    const host = createGasHost({ htmlFiles: { sidebar: '<p>hi</p>' } });
    host.load(MENU_BUNDLE);
    host.call('showSidebar', [], { user: 'editor@example.com' });
    host.call('sendMail');
    expect(host.call('whoAmI', [], { user: 'editor@example.com' })).toBe('editor@example.com');
    expect(host.sidebars).toEqual([expect.objectContaining({ title: 'Engage', html: '<p>hi</p>', user: 'editor@example.com' })]);
    expect(host.mails).toHaveLength(1);
  });

  it('exposes the AuthMode enum for comparisons with the event', () => {
    const host = createGasHost();
    host.load(MENU_BUNDLE);
    expect(host.call('modeOf', [{ authMode: 'NONE' }], { authMode: 'NONE' })).toBe('none');
  });

  it('reports a missing function with Apps Script wording', () => {
    const host = createGasHost();
    host.load(MENU_BUNDLE);
    expect(() => host.call('nope')).toThrow('Script function not found: nope');
  });

  it('gives scripts errors, arrays and dates of their own realm', () => {
    const host = createGasHost();
    host.load(`
      function realm(d, rows) { return [d instanceof Date, rows instanceof Array, rows[0] instanceof Array]; }
      function caught() { try { SpreadsheetApp.getActive(); } catch (e) { return [e instanceof Error, String(e)]; } }
    `);
    expect(host.call('realm', [new Date(0), [[1]]])).toEqual([true, true, true]);
    expect(host.call('caught', [], { authMode: 'NONE' })).toEqual([
      true,
      'Exception: You do not have permission to call SpreadsheetApp.getActive',
    ]);
  });
});
