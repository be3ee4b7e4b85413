/**
 * Server functions of the Account tab's "Formulas in this spreadsheet": whose sign-in formulas use,
 * what the owner lets them use, and the owner's choice. Thin: the core (FormulaAccess) checks who
 * calls and what is asked before anything is sent or written.
 */
import type { FormulaAccessView } from '../core';
import { createFormulaAccess } from '../gas/wiring/formula-access-services';
import { withUserMessage } from './user-errors';

/**
 * What formulas in this spreadsheet may use: whose Engage sign-in they use, the owner's choice
 * (every publisher, chosen publishers or none), whether you may change it, and, for the owner, the
 * other people who can edit the spreadsheet.
 * @return {Object} {sentence, owner, youOwn, canChange, whoCanChange, mode, publishers, setBy, setAt, otherEditors, editorsWarning}.
 */
export function getFormulaAccess(): FormulaAccessView {
  return withUserMessage(() => createFormulaAccess().view());
}

/**
 * Chooses what formulas in this spreadsheet may use with your Engage sign-in and API key. Only the
 * spreadsheet's owner can (formulas use the owner's sign-in, whoever types them).
 * @param {Object} policy {mode: "all" | "chosen" | "none", publishers: the publisher IDs, for "chosen"}.
 * @return {Object} What formulas may use now, as getFormulaAccess gives it.
 */
export function setFormulaAccess(policy: unknown): FormulaAccessView {
  return withUserMessage(() => createFormulaAccess().set(policy));
}
