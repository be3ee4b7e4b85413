/**
 * What the formulas of one spreadsheet may use. Custom functions read the spreadsheet owner's user
 * properties ("getUserProperties() only gets the properties of the spreadsheet owner"), so a formula
 * any editor types runs with the owner's Engage sign-in and recommendations API key. The owner
 * decides, per spreadsheet: every publisher (the default, and the add-on's behaviour before the
 * choice existed), chosen publishers, or none.
 *
 * The choice lives in the owner's user properties under the spreadsheet's ID: only the owner's own
 * executions can write there (an editor's sidebar writes the editor's store, and a formula may not
 * write at all), and every formula reads exactly that store. It follows the sign-in it protects: a new
 * owner, or a copy of the file, starts from every publisher for its own owner's sign-in. A copy for
 * display lives in the document's properties (formula-access.ts); formulas never read it.
 *
 * The gate refuses, before anything is sent: a publisher not chosen (named, one or several); with
 * "none", every formula that uses the owner's sign-in or API key. "all" covers the chosen publishers
 * the sign-in sees, and ENGAGE_PUBLISHERS() lists only those: the publishers lookup a formula makes is
 * filtered, and a cached result carries the choice it was made under (`fingerprint`).
 */
import { publisherIdProblem, type PublisherSelection } from '../../api/requests/publisher-list';
import type { LookupEntry } from '../../api/responses/responses';
import { FormulaNotAllowedError, ValidationError } from '../../errors';
import type { KeyValueStore } from '../../ports';
import { hashText } from '../../util/hash';
import { quoted } from '../../util/text';

export const FORMULA_ACCESS_MODES = ['all', 'chosen', 'none'] as const;
export type FormulaAccessMode = (typeof FORMULA_ACCESS_MODES)[number];

/**
 * The most publishers one choice lists: their IDs stay far inside a property's 9 KB (some 35 bytes
 * each), and the display copy with names inside it too.
 */
export const MAX_CHOSEN_PUBLISHERS = 100;

/** What formulas of one spreadsheet may use, as its owner chose it. */
export interface FormulaPolicy {
  mode: FormulaAccessMode;
  /** Mode "chosen": the publisher IDs formulas may report on; empty otherwise. */
  publisherIds: string[];
  /** Who chose (the owner's email as Apps Script gave it), for the messages. */
  setBy?: string;
  setAtMs?: number;
  /** The stored choice could not be read: nothing is allowed until the owner chooses again. */
  unreadable?: boolean;
}

/** The default: formulas may use every publisher the owner's sign-in sees. */
export const EVERY_PUBLISHER: FormulaPolicy = { mode: 'all', publisherIds: [] };

/** Where the owner's choice for a spreadsheet is kept in the owner's user properties. */
export function formulaPolicyKey(spreadsheetId: string): string {
  return `engage.formulas.${spreadsheetId}`;
}

/** A choice as the sidebar sends it, checked: the mode, and for "chosen" 1 to 100 well-formed, distinct publisher IDs. */
export function formulaPolicyInput(raw: unknown): { mode: FormulaAccessMode; publisherIds: string[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw ValidationError.single('policy', 'must say what formulas may use: {mode, publishers}');
  }
  const { mode, publishers } = raw as { mode?: unknown; publishers?: unknown };
  if (typeof mode !== 'string' || !(FORMULA_ACCESS_MODES as readonly string[]).includes(mode)) {
    const given = typeof mode === 'string' ? quoted(mode) : 'left out';
    throw ValidationError.single(
      'mode',
      `${given} is not a choice: give "all" (every publisher), "chosen" (only the publishers listed) or "none"`,
    );
  }
  const listed = publishers === undefined || publishers === null ? [] : publishers;
  if (!Array.isArray(listed)) throw ValidationError.single('publishers', 'must be a list of publisher IDs');
  if (mode !== 'chosen') {
    if (listed.length > 0) throw ValidationError.single('publishers', `are listed only with mode "chosen", not "${mode}"`);
    return { mode: mode as FormulaAccessMode, publisherIds: [] };
  }
  if (listed.length === 0)
    throw ValidationError.single('publishers', 'must list at least one publisher for mode "chosen" (or choose "none")');
  if (listed.length > MAX_CHOSEN_PUBLISHERS)
    throw ValidationError.single('publishers', `lists ${listed.length} publishers; a choice lists at most ${MAX_CHOSEN_PUBLISHERS}`);
  const ids: string[] = [];
  for (const item of listed) {
    if (typeof item !== 'string') throw ValidationError.single('publishers', 'must be publisher IDs as text');
    const id = item.trim();
    const problem = publisherIdProblem(id);
    if (problem) throw ValidationError.single('publishers', `${quoted(id)} ${problem}`);
    if (ids.includes(id)) throw ValidationError.single('publishers', `${quoted(id)} is listed twice`);
    ids.push(id);
  }
  return { mode: 'chosen', publisherIds: ids };
}

/** The stored form: short keys, IDs only. */
interface StoredPolicy {
  mode: FormulaAccessMode;
  ids?: string[];
  by?: string;
  at?: number;
}

export function storedPolicyText(policy: FormulaPolicy): string {
  const stored: StoredPolicy = { mode: policy.mode };
  if (policy.mode === 'chosen') stored.ids = policy.publisherIds;
  if (policy.setBy) stored.by = policy.setBy;
  if (policy.setAtMs !== undefined) stored.at = policy.setAtMs;
  return JSON.stringify(stored);
}

/** A stored choice; none stored is every publisher, and one that cannot be read allows nothing (fail closed). */
export function parseStoredPolicy(text: string | null): FormulaPolicy {
  if (text === null) return EVERY_PUBLISHER;
  try {
    const stored = JSON.parse(text) as StoredPolicy;
    const ids = stored.ids ?? [];
    const modeKnown = (FORMULA_ACCESS_MODES as readonly string[]).includes(stored.mode);
    const idsRead = Array.isArray(ids) && ids.every((id) => typeof id === 'string');
    if (!modeKnown || !idsRead || (stored.mode === 'chosen' && ids.length === 0)) throw new Error('unreadable');
    const policy: FormulaPolicy = { mode: stored.mode, publisherIds: stored.mode === 'chosen' ? ids : [] };
    if (typeof stored.by === 'string') policy.setBy = stored.by;
    if (typeof stored.at === 'number') policy.setAtMs = stored.at;
    return policy;
  } catch {
    return { mode: 'none', publisherIds: [], unreadable: true };
  }
}

/** The owner's choice for a spreadsheet, read from the owner's user properties (one read). */
export function readFormulaPolicy(ownerStore: KeyValueStore, spreadsheetId: string | undefined): FormulaPolicy {
  return spreadsheetId === undefined ? EVERY_PUBLISHER : parseStoredPolicy(ownerStore.get(formulaPolicyKey(spreadsheetId)));
}

/** What one formula may use, by its spreadsheet owner's choice; every check throws before anything is sent. */
export class FormulaGate {
  constructor(private readonly policy: FormulaPolicy) {}

  private refuse(what: ConstructorParameters<typeof FormulaNotAllowedError>[0]): never {
    throw new FormulaNotAllowedError(what, this.policy.setBy, this.policy.unreadable === true);
  }

  /** A formula that uses the owner's sign-in at all (lookups, reports). */
  signIn(): void {
    if (this.policy.mode === 'none') this.refuse('sign-in');
  }

  /** A formula that uses the owner's recommendations API key. */
  apiKey(): void {
    if (this.policy.mode === 'none') this.refuse('api-key');
  }

  /** A publisher's own lookup (widgets, native apps). */
  publisher(id: string): void {
    this.publishers({ type: 'one', id });
  }

  /** A report's publishers: each one named must be chosen; "all" is whatever the lookup lets through (`listed`). */
  publishers(selection: PublisherSelection): void {
    this.signIn();
    if (this.policy.mode !== 'chosen' || selection.type === 'all') return;
    const ids = selection.type === 'one' ? [String(selection.id).trim()] : selection.ids;
    const refused = ids.filter((id) => !this.policy.publisherIds.includes(id));
    if (refused.length > 0) this.refuse({ publishers: refused });
  }

  /** The publishers lookup as formulas may see it: with "chosen", only the chosen ones, and never none of them. */
  readonly listed = (entries: LookupEntry[]): LookupEntry[] => {
    if (this.policy.mode !== 'chosen') return entries;
    const allowed = entries.filter((e) => this.policy.publisherIds.includes(String(e.id ?? '').trim()));
    if (allowed.length === 0 && entries.length > 0) this.refuse('none-seen');
    return allowed;
  };

  /** Part of a cached result's identity: a result made under one choice is never served under another. */
  fingerprint(): string {
    if (this.policy.mode !== 'chosen') return this.policy.mode;
    return `chosen:${hashText([...this.policy.publisherIds].sort().join(','))}`;
  }
}
