/**
 * Installable triggers with the Editor add-on rules: every trigger of the script lives in the
 * deployment and names its user and document; a user may have one trigger of each type per document
 * and 20 in all (a published add-on is one script), and an add-on's time-driven triggers run at most
 * hourly. Time-driven triggers carry their next due time on the host clock; gas-host.ts runs them.
 */
import type { HostClock } from '../../shared/clock';
import { GasException, type ServedOps, type TriggerOps, type TriggerRecord, type TriggerSpec } from '../protocol/protocol';
import type { DocumentIdentity } from './document';

export const TRIGGERS_PER_USER_LIMIT = 20;
/** What Apps Script throws for a trigger past the user's 20 (the words users report). */
export const TOO_MANY_TRIGGERS_MESSAGE =
  'This script has too many triggers. Triggers must be deleted from the script before more can be added.';
const HOUR_MS = 3_600_000;

export interface TriggerRules {
  /** Apply the Editor add-on rules (one trigger per type per user per document, at most hourly). */
  isAddOn: boolean;
  /** The script's time zone, in which atHour is read. */
  scriptTimeZone: string;
}

export class TriggerStore {
  constructor(
    /** Every trigger of the script, of every user in every document (the deployment's). */
    readonly records: TriggerRecord[],
    private readonly document: DocumentIdentity,
    private readonly rules: TriggerRules,
    private readonly clock: HostClock,
    private readonly nextTriggerId: () => number,
  ) {}

  /** This document's triggers. */
  ofDocument(): TriggerRecord[] {
    return this.records.filter((t) => t.documentId === this.document.documentId);
  }

  /** Removes the triggers of this document, of one user or of everyone (the document went to the trash, a user lost access). */
  removeOfDocument(user?: string): void {
    for (const t of this.ofDocument()) if (user === undefined || t.user === user) this.remove(t.id);
  }

  remove(triggerId: string): void {
    const index = this.records.findIndex((t) => t.id === triggerId);
    if (index >= 0) this.records.splice(index, 1);
  }

  private create(user: string, spec: TriggerSpec): TriggerRecord {
    const { documentId } = this.document;
    const eventType = spec.eventType;
    if (eventType === undefined)
      throw new GasException('Invalid argument: the trigger has no event (onOpen, onEdit, onChange or onFormSubmit)');
    if (this.rules.isAddOn) {
      if (eventType === 'CLOCK' && (spec.everyMinutes !== undefined || (spec.everyHours !== undefined && spec.everyHours < 1))) {
        throw new GasException('Add-ons can not create time-based triggers to run more frequently than once an hour.');
      }
      const same = this.records.filter((t) => t.user === user && t.documentId === documentId && t.eventType === eventType);
      if (same.length >= 1) {
        const kind = { CLOCK: 'time-based', ON_OPEN: 'open', ON_EDIT: 'edit', ON_CHANGE: 'change', ON_FORM_SUBMIT: 'form submit' }[
          eventType
        ];
        throw new GasException(`This add-on has created too many ${kind} triggers in this document for this Google user account.`);
      }
    }
    if (this.records.filter((t) => t.user === user).length >= TRIGGERS_PER_USER_LIMIT) {
      throw new GasException(TOO_MANY_TRIGGERS_MESSAGE);
    }
    const record: TriggerRecord = { id: String(this.nextTriggerId()), handlerFunction: spec.handlerFunction, eventType, user, documentId };
    if (eventType === 'CLOCK') {
      const now = this.clock.now();
      if (spec.at !== undefined) record.nextRunAt = spec.at;
      else if (spec.after !== undefined) record.nextRunAt = now + spec.after;
      else {
        record.intervalMs =
          spec.everyMinutes !== undefined
            ? spec.everyMinutes * 60_000
            : spec.everyHours !== undefined
              ? spec.everyHours * HOUR_MS
              : spec.everyWeeks !== undefined
                ? spec.everyWeeks * 7 * 24 * HOUR_MS
                : (spec.everyDays ?? 1) * 24 * HOUR_MS;
        record.atHour = spec.atHour;
        record.nextRunAt = spec.atHour !== undefined ? this.nextTimeAtHour(now, spec.atHour) : now + record.intervalMs;
      }
    }
    this.records.push(record);
    return record;
  }

  private nextTimeAtHour(now: number, hour: number): number {
    let t = Math.ceil(now / HOUR_MS) * HOUR_MS;
    for (let i = 0; i < 48; i++, t += HOUR_MS) {
      const h = Number(
        new Intl.DateTimeFormat('en-US', { timeZone: this.rules.scriptTimeZone, hour: 'numeric', hourCycle: 'h23' }).format(new Date(t)),
      );
      if (h === hour && t > now) return t;
    }
    return now + 24 * HOUR_MS;
  }

  readonly ops: ServedOps<keyof TriggerOps> = {
    triggerCreate: (execution, spec) => ({ ...this.create(execution.user, spec) }),
    triggerList: (execution, which, documentId) => {
      const mine = this.records.filter((t) => t.user === execution.user);
      const inDocument = documentId ?? this.document.documentId;
      return (which === 'user' ? mine.filter((t) => t.documentId === inDocument) : mine).map((t) => ({ ...t }));
    },
    triggerDelete: (_execution, triggerId) => this.remove(triggerId),
  };
}
