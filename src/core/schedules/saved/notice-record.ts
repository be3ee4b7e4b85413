/**
 * What a saved report's notices remember between runs, kept for its owner in their user properties
 * beside the registry's mirror of the report (registry.ts), so that a run without the document (a
 * spreadsheet opened by ID) reads and writes it as well as a run in it: each channel's secret under
 * the channel's id (the webhook's address, which may hold a key or token, so it is kept only here,
 * never in the definition: channels/), which failure was told and
 * whether it reached anyone, each alert rule's state (firing or not, when it last fired, which keys
 * it named), and the last notice sent with how each channel took it, for the sidebar. A record is
 * kept within a size known from the definition (noticeRecordMaxBytes), which the registry sets aside
 * when a report is saved: a run never finds the user's properties full.
 */
import { utf8Length } from '../../util/utf8';
import { CHANNEL_IDS, type ChannelOutcomes, type ChannelSecrets, SECRET_CHANNELS } from '../../channels/channels';
import type { NoticeSettingsInput } from './notice-settings';

/** The refresh notices' state: the report is failing, since when, for which reason (a hash), and whether it was told. */
export interface FailureTold {
  reason: string;
  sinceMs: number;
  /** A channel took the failure notice: the recovery will be told too. */
  told: boolean;
  /** Notices of it sent so far: one that reached no channel is tried again at the next run, a few times at most. */
  tries: number;
}

/** One alert rule's state, under its alertKey. */
export interface AlertState {
  /** The condition held at the last evaluation: it fires again only once it has cleared. */
  on: boolean;
  firedAtMs?: number;
  /** A "drops to 0" rule: short hashes of the keys it named, so a new key fires while others still hold. */
  keys?: string[];
}

/** The record: the channels' secrets, under their ids, beside what the notices remember. */
export interface NoticeRecord extends ChannelSecrets {
  failure?: FailureTold;
  alerts?: Record<string, AlertState>;
  last?: { atMs: number; subject: string } & ChannelOutcomes;
}

/** The last notice's subject and each channel's outcome are kept within these bytes (UTF-8: names may be in any script). */
const SUBJECT_MAX_BYTES = 150;
const OUTCOME_MAX_BYTES = 100;
/** Keys a "drops to 0" rule remembers: past them, its notice says how many more. */
export const ALERT_KEYS_KEPT = 10;
/** The record's fixed part at its longest: the failure (some 90 bytes), the last notice with each channel's outcome, the JSON around them. */
const BASE_MAX_BYTES = 300 + CHANNEL_IDS.length * OUTCOME_MAX_BYTES;
/** One rule's state at its longest: its key, flags, a time and ten key hashes. */
const ALERT_STATE_MAX_BYTES = 160;
/** The most a report's record takes, from its definition: what the registry sets aside for it. */
export function noticeRecordMaxBytes(report: { notices?: NoticeSettingsInput; alerts?: readonly unknown[] }): number {
  const secrets = SECRET_CHANNELS.filter((channel) => channel.isOn(report.notices?.[channel.id]));
  const alerts = report.alerts?.length ?? 0;
  // Told nothing of its refreshes, watched by no rule and keeping no secret, a report's notices never keep anything.
  if (report.notices?.when === 'never' && alerts === 0 && secrets.length === 0) return 0;
  const secretBytes = secrets.reduce((sum, channel) => sum + channel.secret.maxBytes, 0);
  return BASE_MAX_BYTES + secretBytes + alerts * ALERT_STATE_MAX_BYTES;
}

/** Text within `maxBytes` of UTF-8, ending in "..." when it was shortened. */
function cut(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  let kept = text.slice(0, maxBytes);
  while (utf8Length(`${kept}...`) > maxBytes) kept = kept.slice(0, -1);
  return `${kept}...`;
}

/** The record as stored: its texts shortened to their bounds, so it stays within noticeRecordMaxBytes. */
export function noticeRecordText(record: NoticeRecord): string {
  const stored: NoticeRecord = { ...record };
  if (record.last) {
    stored.last = { ...record.last, subject: cut(record.last.subject, SUBJECT_MAX_BYTES) };
    for (const id of CHANNEL_IDS) {
      const outcome = record.last[id];
      if (outcome !== undefined) stored.last[id] = cut(outcome, OUTCOME_MAX_BYTES);
    }
  }
  if (record.alerts) {
    stored.alerts = {};
    for (const [key, state] of Object.entries(record.alerts)) {
      stored.alerts[key] = state.keys ? { ...state, keys: state.keys.slice(0, ALERT_KEYS_KEPT) } : state;
    }
  }
  return JSON.stringify(stored);
}

/** Whether a record holds anything worth a property (an empty one is removed instead). */
export function isEmptyRecord(record: NoticeRecord): boolean {
  const secret = SECRET_CHANNELS.some((channel) => record[channel.id]);
  return !secret && !record.failure && !record.last && Object.keys(record.alerts ?? {}).length === 0;
}

export function parseNoticeRecord(text: string | undefined): NoticeRecord {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === 'object' ? (parsed as NoticeRecord) : {};
  } catch {
    return {};
  }
}

export const noticeRecordBytes = (record: NoticeRecord) => utf8Length(noticeRecordText(record));
