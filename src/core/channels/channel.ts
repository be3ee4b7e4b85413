/**
 * What a notice channel is (email, a webhook ...): the fragment of a saved report's `notices` it
 * reads, whether that turns it on, what the Schedules tab's view shows of it, the part of it that is
 * secret (kept only in the owner's notice record, in their user properties; the definition keeps a
 * redacted form), and how it sends one message through its own port, built where the add-on is wired.
 * Each channel is one registration (email.ts, webhook.ts) in the list of channels.ts; the rest of the
 * core asks that list and never names a channel. Also here: the rule that keeps secrets out of every
 * message's text, which the channels apply to their own failures too.
 */
import type * as z from '../util/zod';
import type { Deployment } from '../deployment';
import type { SpreadsheetRef } from '../ports';

/** What the deployment fixes for the channels: where they may send, checked when a secret is saved. */
export type ChannelDeployment = Pick<Deployment, 'webhookPrefixes' | 'localServers'>;

/** One notice as each channel gets it: its text already rid of secrets, and what it is about. */
export interface ChannelMessage {
  subject: string;
  lines: readonly string[];
  spreadsheet: SpreadsheetRef;
  report: { id: string; name: string };
  /**
   * A notice that lists several reports (failures of one run, grouped, in one spreadsheet or several):
   * all of them, `report` first, each with its spreadsheet (`spreadsheet` is the first one's).
   */
  reports?: ReadonlyArray<{ id: string; name: string; spreadsheet: SpreadsheetRef }>;
  /**
   * The latest a channel may wait before it sends (a webhook's spacing, a 429's Retry-After): the run's
   * time for notices. A wait past it is not started, and the notice is not sent. Undefined: no waiting.
   */
  untilMs?: number;
  /** The channel's secret (a channel with one), read from the owner's notice record; undefined when missing there. */
  secret: string | undefined;
}

/**
 * Sends one message, never throwing: "sent", or why not ("not sent: ..."). One attempt, but for what a
 * channel's service asks (a webhook's 429 is tried once more after its Retry-After, within `untilMs`).
 */
export type ChannelSend = (message: ChannelMessage) => string;

/**
 * The part of a channel's setting that must stay out of sight: the setting is then text (null or ""
 * removes it), which the owner's notice record keeps whole under the channel's id, while the
 * definition, and so document properties and every editor's sidebar, keeps only its redacted form;
 * that form given back means "unchanged".
 */
export interface ChannelSecret {
  /** The most it takes in the notice record, its JSON included: the registry sets the room aside. */
  maxBytes: number;
  redacted(secret: string): string;
  isRedacted(text: string): boolean;
  /** Why `given` may not be used here, or undefined. */
  problem(given: string, deployment: ChannelDeployment | undefined): string | undefined;
  /** The refusal of a redacted form that is not the saved one's. */
  notTheSaved: string;
}

/**
 * One notice channel. `Setting` is what `notices[id]` holds (left out: undefined); `Shown`, what the
 * Schedules tab's view (NoticesView) holds under the same id.
 */
export interface NoticeChannel<Id extends string = string, Setting = unknown, Shown = unknown> {
  /**
   * Its key in `notices`, in the owner's notice record (its secret, its outcome in the last notice) and
   * in the Schedules tab's view; the word that names its outcome there and in the run log ("webhook sent").
   */
  id: Id;
  /** Its fragment of the notices' schema, optional. */
  setting: z.ZodMiniType<Setting | undefined>;
  isOn(setting: Setting | undefined): boolean;
  /** How a user turns it on, said when alerts have no channel: "turn on notices.email". */
  turnOn: string;
  shown(setting: Setting | undefined): Shown;
  secret?: ChannelSecret;
}

/** Text with every address's query taken off: a key or a token travels there. */
export function withoutSecrets(text: string): string {
  // Up to the address's end: a sentence's closing punctuation stays.
  return text.replace(/(\bhttps?:\/\/[^\s?#]+)[?#]\S*?(?=[.,;:!)\]]*(?:\s|$))/gi, '$1?…');
}

/** An error's message, rid of secrets, as a channel's "not sent: ..." reason. */
export function notSent(error: unknown): string {
  return `not sent: ${withoutSecrets(error instanceof Error ? error.message : String(error))}`;
}
