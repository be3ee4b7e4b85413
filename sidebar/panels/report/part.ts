/**
 * The contract between the Report tab's builder (builder.ts) and its parts: the period, breakdown,
 * metric, filter and target pickers, the Schedule section, the run's progress and the tagging helper.
 * A part is made by a function that takes what it needs from the builder and returns its elements
 * (`node` or `nodes`, which the builder places) and the few methods the builder calls. The builder
 * owns the choice the parts follow (the report type and the ticked breakdowns); parts read it through
 * `choice()`, never keep a copy, and never reach into one another. After the user edits a part, the
 * part redraws itself and calls `changed()`, and the builder redraws what follows from it (the
 * equivalent formula, the Schedule section). The breakdown chips instead hand their new list to the
 * builder, which stores it and redraws every part that follows the choice.
 */
import { effectiveBreakdowns, type ReportKind } from '../../../src/core';
import type { Moments } from '../../moments';

/** The report type and the breakdowns the user ticked, in the order ticked. */
export interface ReportChoice {
  readonly kind: ReportKind;
  readonly breakdowns: readonly string[];
  /** The report covers several publishers: its table starts with the publisher's ID and name. */
  readonly severalPublishers?: boolean;
  /** Compared with an earlier period (compare.ts): its own default metrics, four columns a metric. */
  readonly comparing?: boolean;
}

/** What the builder gives a part the user edits. */
export interface PartContext {
  /** The builder's choice as it is now. */
  choice(): ReportChoice;
  /** Called after the user changed the part. */
  changed(): void;
}

/** One action at a time in the tab: while a run, an insert or a save is under way, every action button is off. */
export interface Busy {
  isBusy(): boolean;
  setBusy(busy: boolean): void;
}

/** The same, for an action whose start supersedes what the tab said before (moments.ts: 'action'). */
export function startingAction(busy: Busy, moments: Moments): Busy {
  return {
    isBusy: () => busy.isBusy(),
    setBusy(on) {
      if (on) moments.happened('action');
      busy.setBusy(on);
    },
  };
}

/**
 * The breakdowns a request names: the ticked ones, with the external-ID report's ever-present
 * externalId first. A general report with none stays empty, so its formula shows no breakdowns.
 */
export function requestBreakdowns(choice: ReportChoice): string[] {
  return choice.kind === 'externalId' ? effectiveBreakdowns('externalId', choice.breakdowns) : [...choice.breakdowns];
}
