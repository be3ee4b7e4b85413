/**
 * The add-on's documents as files: who may open each one, whether it is in the trash, and opening
 * one by ID or URL from an execution of another (SpreadsheetApp.openById / openByUrl). Every host on a
 * deployment registers its document here; an execution opens another with the rules of the reference
 * (developers.google.com/apps-script/reference/spreadsheet/spreadsheet-app#openById(String)): the
 * manifest must grant `https://www.googleapis.com/auth/spreadsheets` (`spreadsheets.currentonly` is
 * not enough), the user must be the document's owner or one of its editors, and a document in the trash
 * or unknown is refused. The refusals' words are what users report of Apps Script (UNCONFIRMED: no
 * official page lists them; see dev/gas-host/README.md).
 */
import { GasException, type DocumentOpRequest, type DocumentOps, type ExecutionInfo, type ServedOps } from '../../protocol/protocol';

/** The scope openById and openByUrl need ("Authorization" on their reference pages). */
export const SPREADSHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

/** Apps Script's refusal for a method whose scope the manifest lacks (the words users report). */
export const scopeRefusal = (method: string) => `You do not have permission to call ${method}. Required permissions: ${SPREADSHEETS_SCOPE}`;
/** A document the user may not open (UNCONFIRMED wording; users also report "You do not have access to the requested document."). */
export const NO_ACCESS_MESSAGE = 'You do not have permission to access the requested document.';
/** A document in the trash, deleted, or never made (UNCONFIRMED wording, as users report it). */
export const missingDocument = (documentId: string) => `Document ${documentId} is missing (perhaps it was deleted?)`;

/** One document of the deployment as a file: its people, its state, and how to serve its operations. */
export interface DocumentFile {
  readonly documentId: string;
  readonly owner: string;
  /** Users besides the owner who may open it, in lower case (getEditors shows the same list: sharing.ts). */
  readonly editors: Set<string>;
  /** Users whose access was removed: running an execution in the document no longer makes them editors. */
  readonly removed: Set<string>;
  /** In the trash (or deleted for good): nobody opens it, and its triggers are gone. */
  trashed: boolean;
  /** Serves one Spreadsheet, Sheet or Range operation on this document for an execution of any document. */
  serve(execution: ExecutionInfo, request: DocumentOpRequest): unknown;
}

export function canOpen(file: DocumentFile, user: string): boolean {
  const who = user.toLowerCase();
  return !file.trashed && (who === file.owner.toLowerCase() || file.editors.has(who));
}

/** The ID in a spreadsheet's URL (`.../spreadsheets/d/<id>/edit`), or undefined when it holds none. */
export function idOfUrl(url: string): string | undefined {
  return /\/spreadsheets\/d\/([A-Za-z0-9_-]+)/.exec(url)?.[1];
}

/** The operations that open other documents, served for the executions of one document. */
export function documentOps(
  documents: Map<string, DocumentFile>,
  /** The manifest's oauthScopes; undefined: no manifest, so Apps Script would grant what the code uses. */
  oauthScopes: readonly string[] | undefined,
): ServedOps<keyof DocumentOps> {
  const reachable = (execution: ExecutionInfo, documentId: string): DocumentFile => {
    const file = documents.get(documentId);
    if (!file || file.trashed) throw new GasException(missingDocument(documentId));
    if (!canOpen(file, execution.user)) throw new GasException(NO_ACCESS_MESSAGE);
    return file;
  };
  return {
    documentOpen: (execution, target, how) => {
      const method = how === 'url' ? 'SpreadsheetApp.openByUrl' : 'SpreadsheetApp.openById';
      if (oauthScopes && !oauthScopes.includes(SPREADSHEETS_SCOPE)) throw new GasException(scopeRefusal(method));
      const documentId = how === 'url' ? idOfUrl(target) : target;
      if (documentId === undefined || documentId === '') throw new GasException(`Invalid argument: ${how}`);
      return reachable(execution, documentId).documentId;
    },
    documentOp: (execution, documentId, request) => reachable(execution, documentId).serve(execution, request),
  };
}
