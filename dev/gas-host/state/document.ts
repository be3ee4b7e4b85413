/**
 * What every part of the host state needs to know of the document it serves: its id and owner, and
 * so which store a scope names. A published add-on is one script, so `script` and `user:<email>`
 * stores are the deployment's, shared by every document, and `document:<id>` is this document's own.
 */
import type { ExecutionInfo, StoreScope } from '../protocol/protocol';

export interface DocumentIdentity {
  documentId: string;
  /** The spreadsheet owner: custom functions reach this user's stores and quotas. */
  owner: string;
}

/** Adds to a named call counter (`Properties.reads`, `http.requests`...). */
export type Counter = (name: string, by?: number) => void;

/**
 * The user whose user properties, user cache and daily quotas an execution reaches: a custom
 * function's are the spreadsheet owner's, whoever recalculates (the quotas' part is UNCONFIRMED).
 */
export function storeUser(document: DocumentIdentity, execution: ExecutionInfo): string {
  return execution.authMode === 'CUSTOM_FUNCTION' ? document.owner : execution.user;
}

/** The name of the store a scope reaches: `script`, `user:<email>` or `document:<id>`. */
export function storeName(document: DocumentIdentity, scope: StoreScope, user: string): string {
  if (scope === 'user') return `user:${user}`;
  if (scope === 'document') return `document:${document.documentId}`;
  return 'script';
}
