/**
 * Who owns the document and who may edit it: Spreadsheet.getOwner(), getEditors(), addEditor() and
 * removeEditor(). Google's reference: getOwner "Returns the owner of the document, or null for a
 * document in a shared drive"; getEditors "Gets the list of editors for this Spreadsheet". Whether that
 * list holds the owner is UNCONFIRMED: here it does, first, so a script that wants the other editors
 * must leave the owner out itself, which works under either answer. In a shared drive the host still
 * gives custom functions the `owner` option's user properties (whose they are there is UNCONFIRMED).
 */
import { GasException, type ServedOps, type SharingOps } from '../protocol';

export interface SharingOptions {
  owner: string;
  /** Editors besides the owner when the document opens. */
  editors: readonly string[];
  /** A file in a shared drive has no owner: getOwner() is null. */
  sharedDrive: boolean;
}

/** An address Apps Script would take; anything else is refused with `Invalid email: <text>` (wording UNCONFIRMED). */
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export class DocumentSharing {
  readonly owner: string | null;
  /** The editors other than the owner, in the order they were added (a live Set: tests may add and remove). */
  readonly editors: Set<string>;

  constructor(options: SharingOptions) {
    this.owner = options.sharedDrive ? null : options.owner;
    this.editors = new Set(options.editors.map((e) => e.toLowerCase()).filter((e) => e !== this.owner?.toLowerCase()));
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
      for (const email of emails) if (email.toLowerCase() !== this.owner?.toLowerCase()) this.editors.add(email.toLowerCase());
    },
    sharingRemoveEditor: (_execution, email) => {
      if (email.toLowerCase() === this.owner?.toLowerCase()) throw new GasException('The owner of the document cannot be removed.');
      this.editors.delete(email.toLowerCase());
    },
  };
}
