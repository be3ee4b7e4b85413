/**
 * PropertiesService: the user's, the document's and the script's property stores. Keys and values
 * are strings; the limits, the store each scope reaches and the custom-function owner rule are the
 * host state's (state/properties.ts).
 */
import type { StoreScope } from '../protocol/protocol';
import { fromRealm, type Facade, type FacadeKit } from './kit';

export function propertiesService(kit: FacadeKit) {
  const { ops } = kit;
  const store = (scope: StoreScope) => {
    const self: Facade = kit.api('Properties', {
      getProperty: (key: string) => ops.propertiesGet(scope, String(key)),
      getProperties: () => ops.propertiesGetAll(scope),
      getKeys: () => ops.propertiesKeys(scope),
      setProperty: (key: string, value: unknown) => {
        ops.propertiesSet(scope, { [String(key)]: String(value) }, false, 'setProperty');
        return self;
      },
      setProperties: (map: Record<string, unknown>, deleteAllOthers?: boolean) => {
        const entries = Object.entries(fromRealm(map) as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
        ops.propertiesSet(scope, Object.fromEntries(entries), deleteAllOthers === true, 'setProperties');
        return self;
      },
      deleteProperty: (key: string) => {
        ops.propertiesDelete(scope, String(key), 'deleteProperty');
        return self;
      },
      deleteAllProperties: () => {
        ops.propertiesDelete(scope, null, 'deleteAllProperties');
        return self;
      },
    });
    return self;
  };
  return kit.api('PropertiesService', {
    getUserProperties: () => (kit.guard('props', 'PropertiesService.getUserProperties'), store('user')),
    // Outside a document (a trigger's run in the strict reading): "null is returned".
    getDocumentProperties: () => (
      kit.guard('props', 'PropertiesService.getDocumentProperties'), kit.request.withoutDocument ? null : store('document')
    ),
    getScriptProperties: () => (kit.guard('props', 'PropertiesService.getScriptProperties'), store('script')),
  });
}
