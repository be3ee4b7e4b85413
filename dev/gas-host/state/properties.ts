/**
 * Property stores with Apps Script's limits: the script's and each user's belong to the deployment
 * (one add-on, every document), the document's to this document. Custom functions read the
 * spreadsheet owner's user properties, and only the owner may write them there.
 */
import { GasException, type ExecutionInfo, type PropertiesOps, type ServedOps, type StoreScope } from '../protocol/protocol';
import { storeUser, type Counter, type DocumentIdentity } from './document';
import { PROPERTIES_QUOTA_MESSAGE, type DailyQuotas } from './quotas';

/**
 * Google's quotas page gives "9 KB / val" and "500 KB / property store" (keys and values). A kilobyte
 * may be read as 1,000 or 1,024 bytes: the host takes the stricter, 9,000 and 500,000 bytes of UTF-8,
 * so whatever fits here fits either reading (an experiment in 2023 saw a store take some 524,000).
 */
export const PROPERTY_VALUE_LIMIT_BYTES = 9_000;
export const PROPERTY_STORE_LIMIT_BYTES = 500_000;

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** The property stores a deployment shares across its documents (deployment.ts holds them). */
export interface SharedPropertyStores {
  readonly scriptProperties: Map<string, string>;
  /** Per user, in every document. */
  readonly userProperties: Map<string, Map<string, string>>;
}

export class PropertyStores {
  private readonly documentProperties = new Map<string, string>();

  constructor(
    private readonly deployment: SharedPropertyStores,
    private readonly document: DocumentIdentity,
    private readonly count: Counter,
    private readonly quotas: DailyQuotas,
  ) {}

  /** Direct access for tests and the playground (bypasses counters and auth); `user` defaults to the owner. */
  of(scope: StoreScope, user?: string): Map<string, string> {
    if (scope === 'script') return this.deployment.scriptProperties;
    if (scope === 'document') return this.documentProperties;
    const key = user ?? this.document.owner;
    let store = this.deployment.userProperties.get(key);
    if (!store) this.deployment.userProperties.set(key, (store = new Map()));
    return store;
  }

  /**
   * Counts a call as Apps Script's Properties quota does (reads and writes), in all and per store, and
   * against the daily quota of the user it runs for (a custom function's: the spreadsheet owner's, as
   * its URL Fetch calls): past it, the call is refused with Apps Script's words and changes nothing.
   */
  private tally(execution: ExecutionInfo, scope: StoreScope, kind: 'reads' | 'writes'): void {
    const user = storeUser(this.document, execution);
    if (this.quotas.left(user, 'propertyOps') < 1) throw new GasException(PROPERTIES_QUOTA_MESSAGE);
    this.quotas.spendDaily(user, 'propertyOps', 1);
    this.count(`Properties.${kind}`);
    this.count(`Properties.${scope}.${kind}`);
  }

  private storeFor(execution: ExecutionInfo, scope: StoreScope): Map<string, string> {
    return this.of(scope, storeUser(this.document, execution));
  }

  private checkWrite(execution: ExecutionInfo, scope: StoreScope, method: string): void {
    if (scope === 'user' && execution.authMode === 'CUSTOM_FUNCTION' && execution.user !== this.document.owner) {
      throw new GasException(`You do not have permission to call ${method}`);
    }
  }

  /** All or nothing: a value or a store over its limit leaves the store as it was. */
  private write(store: Map<string, string>, entries: Array<[string, string]>, replaceAll: boolean): void {
    const next = replaceAll ? new Map<string, string>() : new Map(store);
    for (const [key, value] of entries) {
      if (utf8Bytes(value) > PROPERTY_VALUE_LIMIT_BYTES) throw new GasException('Argument too large: value');
      next.set(key, value);
    }
    let total = 0;
    for (const [key, value] of next) total += utf8Bytes(key) + utf8Bytes(value);
    if (total > PROPERTY_STORE_LIMIT_BYTES) {
      throw new GasException('You have exceeded the property storage quota. Please remove some properties and try again.');
    }
    store.clear();
    for (const [key, value] of next) store.set(key, value);
  }

  readonly ops: ServedOps<keyof PropertiesOps> = {
    propertiesGet: (execution, scope, key) => {
      this.tally(execution, scope, 'reads');
      return this.storeFor(execution, scope).get(key) ?? null;
    },
    propertiesGetAll: (execution, scope) => {
      this.tally(execution, scope, 'reads');
      return Object.fromEntries(this.storeFor(execution, scope));
    },
    propertiesKeys: (execution, scope) => {
      this.tally(execution, scope, 'reads');
      return [...this.storeFor(execution, scope).keys()];
    },
    propertiesSet: (execution, scope, entries, replaceAll, method) => {
      this.checkWrite(execution, scope, method);
      this.tally(execution, scope, 'writes');
      this.write(this.storeFor(execution, scope), Object.entries(entries), replaceAll);
    },
    propertiesDelete: (execution, scope, key, method) => {
      this.checkWrite(execution, scope, method);
      this.tally(execution, scope, 'writes');
      const store = this.storeFor(execution, scope);
      if (key === null) store.clear();
      else store.delete(key);
    },
  };
}
