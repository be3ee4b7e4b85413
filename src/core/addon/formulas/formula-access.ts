/**
 * The Account tab's "Formulas in this spreadsheet": whose Engage sign-in the spreadsheet's formulas
 * use (its owner's, whoever types them), what the owner lets them use (formula-policy.ts), who may
 * change that, and, for the owner, who else can edit and so type formulas with the owner's sign-in.
 *
 * Only the owner may choose. The choice is written to the owner's own user properties, under the
 * spreadsheet's ID, which is what every formula reads; the caller is refused before anything is read,
 * sent or written unless Apps Script names them as the owner (Session's effective user against
 * Spreadsheet.getOwner(), compared without case). A file in a shared drive has no owner, and Google
 * does not say whose properties its formulas read: there each user may set the choice for their own
 * sign-in, which binds the formulas should they use it.
 *
 * Editors' sidebars cannot read the owner's user properties, so the owner's execution also writes a
 * copy, with the publishers' names, to the document's properties: editors see the setting from it,
 * read-only. Formulas never read the copy; only this add-on's code can write the document's
 * properties, and here only the owner's call does.
 */
import { FORMULA_ACCESS_PLACE, OwnerOnlyError, ValidationError } from '../../errors';
import type { Clock, KeyValueStore } from '../../ports';
import { quoted } from '../../util/text';
import { utf8Length } from '../../util/utf8';
import {
  type FormulaAccessMode,
  formulaPolicyInput,
  formulaPolicyKey,
  type FormulaPolicy,
  parseStoredPolicy,
  storedPolicyText,
} from './formula-policy';

/** The document's copy of the owner's choice, for editors to see (display only). */
export const FORMULA_POLICY_COPY_KEY = 'engage.formulas.copy';
/** The copy keeps the publishers' names only while it fits well inside a property's 9 KB. */
const COPY_MAX_BYTES = 8_000;

export interface FormulaAccessDeps {
  /** The caller's own user properties: the owner's hold the choice formulas read. */
  userStore: KeyValueStore;
  /** The document's properties: the copy editors see. */
  documentStore: KeyValueStore;
  spreadsheetId: string;
  /** The owner's email; '' when Apps Script does not give it; null in a shared drive (no owner). */
  owner(): string | null;
  /** The caller's email; '' when Apps Script does not give it. */
  you(): string;
  /** Every editor's email (the owner may be among them). */
  editors(): string[];
  /** The publishers the caller's sign-in sees (one request): what may be chosen, and their names. */
  publishers(): Array<{ id: string; name: string }>;
  clock: Clock;
}

export interface FormulaAccessView {
  /** Whose sign-in formulas use, in one sentence. */
  sentence: string;
  /** The owner's email ('' unknown), or null in a shared drive. */
  owner: string | null;
  youOwn: boolean;
  /** Whether the caller may change the choice (the owner; anyone in a shared drive, for their own sign-in). */
  canChange: boolean;
  /** Who can change it and where, when the caller cannot. */
  whoCanChange?: string;
  mode: FormulaAccessMode;
  /** Mode "chosen": the publishers, with their names when known. */
  publishers: Array<{ id: string; name: string }>;
  setBy?: string;
  /** ISO time of the choice; none: never chosen (every publisher, the default). */
  setAt?: string;
  /** The owner's view: the other people who can edit, whose formulas use the owner's sign-in. */
  otherEditors: string[];
  /** The owner's view: a warning naming them, when there are any. */
  editorsWarning?: string;
}

/** A copy as stored in the document's properties. */
interface PolicyCopy {
  mode: FormulaAccessMode;
  publishers?: Array<{ id: string; name: string }>;
  by?: string;
  at?: number;
}

const sameUser = (a: string, b: string) => a !== '' && a.trim().toLowerCase() === b.trim().toLowerCase();

export class FormulaAccess {
  constructor(private readonly deps: FormulaAccessDeps) {}

  /** What the sidebar shows; for an editor, from the owner's copy. */
  view(): FormulaAccessView {
    const owner = this.deps.owner();
    const you = this.deps.you();
    const youOwn = owner !== null && sameUser(owner, you);
    const canChange = youOwn || owner === null;
    const copy = this.readCopy();
    const names = new Map((copy?.publishers ?? []).map((p) => [p.id, p.name]));
    const policy: FormulaPolicy = canChange ? parseStoredPolicy(this.deps.userStore.get(this.key())) : copyPolicy(copy);
    const view: FormulaAccessView = {
      sentence: signInSentence(owner),
      owner,
      youOwn,
      canChange,
      mode: policy.mode,
      publishers: policy.publisherIds.map((id) => ({ id, name: names.get(id) ?? '' })),
      otherEditors: [],
    };
    if (policy.setBy) view.setBy = policy.setBy;
    if (policy.setAtMs !== undefined) view.setAt = new Date(policy.setAtMs).toISOString();
    if (!canChange) view.whoCanChange = whoCanChange(owner ?? '', you);
    if (youOwn) {
      view.otherEditors = this.deps.editors().filter((e) => !sameUser(e, owner));
      const n = view.otherEditors.length;
      if (n > 0)
        view.editorsWarning =
          `${n === 1 ? 'One other person' : `${n} other people`} can edit this spreadsheet (${view.otherEditors.join(', ')}), ` +
          'and so can anyone its sharing settings let edit (by link or domain, which Engage cannot see): ' +
          'the formulas they type use your Engage sign-in, for what you allow below.';
    }
    return view;
  }

  /** Sets the choice (the owner only); nothing is sent or written unless the caller is the owner and the choice is sound. */
  set(raw: unknown): FormulaAccessView {
    const owner = this.deps.owner();
    const you = this.deps.you();
    if (owner !== null && !sameUser(owner, you)) throw new OwnerOnlyError(owner, you === '');
    const input = formulaPolicyInput(raw);
    let publishers: Array<{ id: string; name: string }> = [];
    if (input.mode === 'chosen') {
      const seen = this.deps.publishers();
      const unknown = input.publisherIds.filter((id) => !seen.some((p) => p.id === id));
      if (unknown.length > 0)
        throw ValidationError.single(
          'publishers',
          `${unknown.map(quoted).join(', ')} ${unknown.length === 1 ? 'is not one' : 'are not'} of the ${seen.length} publishers your Engage sign-in sees: choose among those`,
        );
      publishers = input.publisherIds.map((id) => ({ id, name: seen.find((p) => p.id === id)!.name }));
    }
    const setBy = you || owner || undefined;
    const policy: FormulaPolicy = { ...input, setAtMs: this.deps.clock.now(), ...(setBy ? { setBy } : {}) };
    // Every publisher is the default: nothing is kept for it in the store formulas read.
    if (policy.mode === 'all') this.deps.userStore.remove(this.key());
    else this.deps.userStore.set(this.key(), storedPolicyText(policy));
    // The copy is the owner's, for editors to read; a file in a shared drive has no owner, and each user's
    // choice is their own: a copy there would show one user's choice to the others.
    if (owner !== null) this.deps.documentStore.set(FORMULA_POLICY_COPY_KEY, copyText(policy, publishers));
    return this.view();
  }

  private key(): string {
    return formulaPolicyKey(this.deps.spreadsheetId);
  }

  private readCopy(): PolicyCopy | undefined {
    const text = this.deps.documentStore.get(FORMULA_POLICY_COPY_KEY);
    if (text === null) return undefined;
    try {
      return JSON.parse(text) as PolicyCopy;
    } catch {
      return undefined;
    }
  }
}

function signInSentence(owner: string | null): string {
  if (owner === null)
    return (
      'This spreadsheet is in a shared drive, so it has no owner, and Google does not say whose Engage sign-in its formulas then use: ' +
      'what you choose below applies to your own sign-in, should they use it.'
    );
  return `Formulas in this spreadsheet use ${owner ? `${owner}'s` : "its owner's"} Engage sign-in, also when an editor types them.`;
}

function whoCanChange(owner: string, you: string): string {
  const who = owner ? `the owner, ${owner},` : "the spreadsheet's owner";
  const unknown = you === '' ? ' (Google did not give Engage your email address, so it cannot tell whether that is you)' : '';
  return `Only ${who} can change this${unknown}, ${FORMULA_ACCESS_PLACE}.`;
}

/** The policy an editor sees: the owner's copy, or every publisher when the owner never chose. */
function copyPolicy(copy: PolicyCopy | undefined): FormulaPolicy {
  if (!copy) return { mode: 'all', publisherIds: [] };
  const policy: FormulaPolicy = {
    mode: copy.mode,
    publisherIds: copy.mode === 'chosen' ? (copy.publishers ?? []).map((p) => p.id) : [],
  };
  if (copy.by) policy.setBy = copy.by;
  if (copy.at !== undefined) policy.setAtMs = copy.at;
  return policy;
}

function copyText(policy: FormulaPolicy, publishers: Array<{ id: string; name: string }>): string {
  const copy: PolicyCopy = { mode: policy.mode };
  if (policy.mode === 'chosen') copy.publishers = publishers.map((p) => ({ id: p.id, name: p.name.slice(0, 60) }));
  if (policy.setBy) copy.by = policy.setBy;
  if (policy.setAtMs !== undefined) copy.at = policy.setAtMs;
  const text = JSON.stringify(copy);
  if (utf8Length(text) <= COPY_MAX_BYTES || !copy.publishers) return text;
  return JSON.stringify({ ...copy, publishers: copy.publishers.map((p) => ({ id: p.id, name: '' })) });
}
