/**
 * TextFinder (Spreadsheet, Sheet and Range.createTextFinder): searches cells on the host state, so a
 * script finds the cells it wants without reading a whole sheet. Its options are set by chained calls
 * before the search; `findAll` returns every match as a one-cell Range, sheet by sheet and row by row,
 * and `findNext` walks the same matches one at a time. Replacing is not modelled.
 */
import type { FindQuery } from '../../protocol/protocol';
import type { Facade, FacadeKit } from '../kit';
import type { DocumentFacades } from './document-facades';

export function textFinderFacade(kit: FacadeKit, document: DocumentFacades, text: string, within?: FindQuery['within']): Facade {
  kit.guard('docRead', 'createTextFinder');
  if (text === '') throw kit.realmError('Exception', 'Invalid argument: findText');
  const query: FindQuery = { text, matchCase: false, matchEntireCell: false, matchFormulaText: false, useRegularExpression: false };
  if (within) query.within = within;
  let matches: Facade[] | undefined;
  let cursor = -1;
  const search = () => kit.ops.spreadsheetFind(query).map((cell) => document.range(cell));
  const option = (name: 'matchCase' | 'matchEntireCell' | 'matchFormulaText' | 'useRegularExpression') => (on: boolean) => {
    query[name] = on === true;
    matches = undefined;
    cursor = -1;
    return self;
  };
  const self: Facade = kit.api('TextFinder', {
    matchCase: option('matchCase'),
    matchEntireCell: option('matchEntireCell'),
    matchFormulaText: option('matchFormulaText'),
    useRegularExpression: option('useRegularExpression'),
    findAll: () => search(),
    findNext: () => {
      matches ??= search();
      if (cursor + 1 >= matches.length) return null;
      cursor++;
      return matches[cursor];
    },
    findPrevious: () => {
      matches ??= search();
      if (cursor <= 0) return null;
      cursor--;
      return matches[cursor];
    },
    getCurrentMatch: () => (matches && cursor >= 0 ? matches[cursor] : null),
  });
  return self;
}
