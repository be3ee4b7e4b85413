/**
 * Who owns the document and who may edit it: Spreadsheet.getOwner(), getEditors(), addEditor() and
 * removeEditor(). Google's reference: getOwner "Returns the owner of the document, or null for a
 * document in a shared drive"; getEditors "Gets the list of editors for this Spreadsheet". Whether that
 * list holds the owner is UNCONFIRMED: here it does, first, so a script that wants the other editors
 * must leave the owner out itself, which works under either answer. In a shared drive the host still
 * gives custom functions the `owner` option's user properties (whose they are there is UNCONFIRMED).
 */
import { GasException, type ServedOps, type SharingOps } from '../../protocol/protocol';
import type { DocumentFile } from './documents';

export interface SharingOptions {
  owner: string;
  /** A file in a shared drive has no owner: getOwner() is null. */
  sharedDrive: boolean;
  /** The document as a file of the deployment: its editors are the ones openById lets in (documents.ts). */
  file: Pick<DocumentFile, 'editors' | 'removed'>;
}

/** An address Apps Script would take; anything else is refused with `Invalid email: <text>` (wording UNCONFIRMED). */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export class DocumentSharing {
  readonly owner: string | null;
  /** The editors other than the owner, in the order they were added: the file's live Set, shared with openById's check. */
  readonly editors: Set<string>;
  private readonly removed: Set<string>;

  constructor(options: SharingOptions) {
    this.owner = options.sharedDrive ? null : options.owner;
    this.editors = options.file.editors;
    this.removed = options.file.removed;
    for (const editor of [...this.editors]) {
      this.editors.delete(editor);
      if (editor.toLowerCase() !== options.owner.toLowerCase()) this.editors.add(editor.toLowerCase());
    }
  }

  /** Every editor, the owner first (when there is one). */
  allEditors(): string[] {
    return [...(this.owner ? [this.owner] : []), ...this.editors];
  }

  readonly ops: ServedOps<keyof SharingOps> = {
    sharingOwner: () => this.owner,
    sharingEditors: () => this.allEditors(),
    sharingAddEditors: (_execution, emails) => {
      const bad = emails.find((e) => !EMAIL.test(e));
      if (bad !== undefined) throw new GasException(`Invalid email: ${bad}`);
      for (const email of emails) {
        if (email.toLowerCase() === this.owner?.toLowerCase()) continue;
        this.editors.add(email.toLowerCase());
        this.removed.delete(email.toLowerCase());
      }
    },
    sharingRemoveEditor: (_execution, email) => {
      if (email.toLowerCase() === this.owner?.toLowerCase()) throw new GasException('The owner of the document cannot be removed.');
      this.editors.delete(email.toLowerCase());
      this.removed.add(email.toLowerCase());
    },
  };
}
