/**
 * Who owns the spreadsheet and who edits it, and who runs a script: Spreadsheet.getOwner(),
 * getEditors(), addEditor()/addEditors()/removeEditor(), Session.getEffectiveUser() and
 * getActiveUser() with User.getEmail(). With a manifest, each needs the scope Google's reference gives
 * it: the Spreadsheet methods spreadsheets.currentonly (or spreadsheets), the Session methods
 * userinfo.email; without the scope Apps Script refuses the call.
 */
import { createGasHost } from '../../../dev/gas-host';

const BUNDLE = `
function owner() { var o = SpreadsheetApp.getActiveSpreadsheet().getOwner(); return o === null ? null : o.getEmail(); }
function editors() { return SpreadsheetApp.getActiveSpreadsheet().getEditors().map(function (u) { return u.getEmail(); }); }
function share(email) { return SpreadsheetApp.getActiveSpreadsheet().addEditor(email).getEditors().length; }
function shareMany(emails) { SpreadsheetApp.getActiveSpreadsheet().addEditors(emails); }
function shareUser() { var ss = SpreadsheetApp.getActiveSpreadsheet(); ss.addEditor(ss.getOwner()); return ss.getEditors().length; }
function unshare(email) { SpreadsheetApp.getActiveSpreadsheet().removeEditor(email); }
function me() { return [Session.getEffectiveUser().getEmail(), Session.getActiveUser().getEmail()]; }
/** @customfunction */
function EDITORS() { return editors().join(','); }
/** @customfunction */
function SHARE(email) { return share(email); }
`;

const SCOPES = {
  currentOnly: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  all: 'https://www.googleapis.com/auth/spreadsheets',
  email: 'https://www.googleapis.com/auth/userinfo.email',
};

describe('the owner and the editors', () => {
  it('are the owner option and the editors option, the owner first among the editors', () => {
    const host = createGasHost({ owner: 'ann@example.com', editors: ['Bob@example.com', 'ann@example.com'] });
    host.load(BUNDLE);
    expect(host.call('owner')).toBe('ann@example.com');
    expect(host.call('editors')).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('change with addEditor, addEditors and removeEditor, which refuse an address that is none', () => {
    const host = createGasHost({ owner: 'ann@example.com' });
    host.load(BUNDLE);
    expect(host.call('share', ['cy@example.com'])).toBe(2);
    host.call('shareMany', [['dee@example.com', 'cy@example.com']]);
    expect(host.call('shareUser')).toBe(3);
    expect(host.call('editors')).toEqual(['ann@example.com', 'cy@example.com', 'dee@example.com']);
    host.call('unshare', ['cy@example.com']);
    expect([...host.state.sharing.editors]).toEqual(['dee@example.com']);
    expect(() => host.call('share', ['not an address'])).toThrow('Invalid email: not an address');
    expect(() => host.call('unshare', ['ann@example.com'])).toThrow('The owner of the document cannot be removed.');
    // A test may share the document directly, as its owner would in Sheets' Share dialog.
    host.state.sharing.editors.add('eve@example.com');
    expect(host.call('editors')).toEqual(['ann@example.com', 'dee@example.com', 'eve@example.com']);
  });

  it('can be read in a formula, which may not change them (a custom function writes nothing)', () => {
    const host = createGasHost({ owner: 'ann@example.com', editors: ['bob@example.com'] });
    host.load(BUNDLE);
    expect(host.evaluateFormula(undefined, 'A1', '=EDITORS()').value).toBe('ann@example.com,bob@example.com');
    expect(host.evaluateFormula(undefined, 'A2', '=SHARE("cy@example.com")').error).toBe('You do not have permission to call addEditor');
  });

  it('has no owner in a shared drive: getOwner() is null', () => {
    const host = createGasHost({ owner: 'ann@example.com', editors: ['bob@example.com'], sharedDrive: true });
    host.load(BUNDLE);
    expect(host.call('owner')).toBeNull();
    expect(host.call('editors')).toEqual(['bob@example.com']);
  });
});

describe('who runs a script', () => {
  it('is the execution’s user, for getEffectiveUser and getActiveUser alike; a formula may not ask', () => {
    const host = createGasHost({ owner: 'ann@example.com' });
    host.load(BUNDLE);
    expect(host.call('me', [], { user: 'bob@example.com' })).toEqual(['bob@example.com', 'bob@example.com']);
    expect(() => host.call('me', [], { authMode: 'CUSTOM_FUNCTION' })).toThrow(
      'You do not have permission to call Session.getEffectiveUser',
    );
  });
});

describe("the manifest's scopes", () => {
  const withScopes = (oauthScopes: string[]) => {
    const host = createGasHost({ owner: 'ann@example.com', manifest: { oauthScopes } });
    host.load(BUNDLE);
    return host;
  };

  it('let every call through when they hold what Google documents for it', () => {
    const host = withScopes([SCOPES.currentOnly, SCOPES.email]);
    expect(host.call('owner')).toBe('ann@example.com');
    expect(host.call('share', ['cy@example.com'])).toBe(2);
    expect(host.call('me')).toEqual(['ann@example.com', 'ann@example.com']);
    // The broader spreadsheets scope serves the Spreadsheet methods too.
    expect(withScopes([SCOPES.all]).call('editors')).toEqual(['ann@example.com']);
  });

  it('refuse the Session user without userinfo.email, and the sharing methods without a spreadsheets scope', () => {
    const host = withScopes([SCOPES.currentOnly]);
    expect(() => host.call('me')).toThrow(
      'You do not have permission to call Session.getEffectiveUser. Required permissions: https://www.googleapis.com/auth/userinfo.email',
    );
    const bare = withScopes([SCOPES.email]);
    expect(() => bare.call('owner')).toThrow(
      `You do not have permission to call Spreadsheet.getOwner. Required permissions: (${SCOPES.currentOnly} || ${SCOPES.all})`,
    );
    expect(() => bare.call('share', ['cy@example.com'])).toThrow('You do not have permission to call Spreadsheet.addEditor');
    expect([...bare.state.sharing.editors]).toEqual([]);
  });
});
