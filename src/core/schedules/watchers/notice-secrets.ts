/**
 * The channels' secrets (the webhook's address ...: channels/) on their way in: each one checked
 * against what the deployment allows, then split from the definition, which keeps only its redacted
 * form ("https://chat.googleapis.com/…"), while the secret itself goes to the owner's notice record in
 * their user properties (notice-record.ts): it may carry a key or token, so it never reaches document
 * properties or another editor's sidebar. The redacted form given back unchanged (the sidebar's edit
 * form does) keeps the secret saved; an empty setting removes it.
 */
import type { ChannelDeployment, ChannelSecret } from '../../channels/channel';
import { SECRET_CHANNELS, type SecretChannelId } from '../../channels/channels';
import { ValidationError } from '../../errors';
import type { ScheduleRegistry } from '../saved/registry';
import type { SavedReportInput } from '../saved/saved-reports';

/** What becomes of each secret: a new one, null (none), or undefined (the saved one stays). */
export type SecretChanges = { [Id in SecretChannelId]?: string | null };

/** The definition to store, and what becomes of each channel's secret. */
export type SplitSecrets = { definition: SavedReportInput } & SecretChanges;

/** One channel's secret split from `definition`; refuses, naming `notices.<id>`, a secret the deployment does not allow. */
function splitOne(
  id: SecretChannelId,
  secret: ChannelSecret,
  definition: SavedReportInput,
  before: SavedReportInput | undefined,
  deployment: ChannelDeployment | undefined,
): { definition: SavedReportInput; secret: string | null | undefined } {
  const given = definition.notices?.[id]?.trim();
  if (!definition.notices || !given) {
    if (!definition.notices || !(id in definition.notices)) return { definition, secret: null };
    const { [id]: _removed, ...notices } = definition.notices;
    return { definition: { ...definition, notices }, secret: null };
  }
  const field = `notices.${id}`;
  if (secret.isRedacted(given)) {
    if (given === before?.notices?.[id]) return { definition, secret: undefined };
    throw ValidationError.single(field, secret.notTheSaved);
  }
  const problem = secret.problem(given, deployment);
  if (problem) throw ValidationError.single(field, `('${secret.redacted(given)}') ${problem}`);
  return { definition: { ...definition, notices: { ...definition.notices, [id]: secret.redacted(given) } }, secret: given };
}

/**
 * Checks the secrets of a definition to save (`before`: the report's saved definition, when it is
 * changed) and splits them off; refuses, naming the field, a secret the deployment does not allow or
 * a redacted form that is not the saved one's.
 */
export function splitSecrets(
  definition: SavedReportInput,
  before: SavedReportInput | undefined,
  deployment: ChannelDeployment | undefined,
): SplitSecrets {
  const split: SplitSecrets = { definition };
  for (const channel of SECRET_CHANNELS) {
    const one = splitOne(channel.id, channel.secret, split.definition, before, deployment);
    split.definition = one.definition;
    split[channel.id] = one.secret;
  }
  return split;
}

/** Keeps each secret in the owner's notice record (after the definition was saved), or removes it. */
export function storeSecrets(registry: ScheduleRegistry, spreadsheetId: string, reportId: string, changes: SecretChanges): void {
  const changed = SECRET_CHANNELS.filter((channel) => changes[channel.id] !== undefined);
  if (changed.length === 0) return;
  let record = registry.notice(spreadsheetId, reportId);
  const before = record;
  for (const channel of changed) {
    const change = changes[channel.id];
    if (change !== null) record = { ...record, [channel.id]: change };
    else if (record[channel.id]) {
      const { [channel.id]: _gone, ...rest } = record;
      record = rest;
    }
  }
  if (record !== before) registry.putNotice(spreadsheetId, reportId, record);
}
