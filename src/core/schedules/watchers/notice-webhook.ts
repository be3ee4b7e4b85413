/**
 * A saved report's webhook address on its way in: checked against the deployment's webhook prefixes
 * (the manifest lets Apps Script post nowhere else), then split from the definition, which keeps only
 * its redacted form ("https://chat.googleapis.com/…"), while the address itself goes to the owner's
 * notice record in their user properties (notice-record.ts): a Chat or Slack webhook address carries
 * its key and token, so it never reaches document properties or another editor's sidebar. The
 * redacted form given back unchanged (the sidebar's edit form does) keeps the address saved; an empty
 * one removes it.
 */
import { type Deployment, webhookAddressProblem } from '../../deployment';
import { ValidationError } from '../../errors';
import { isRedactedWebhook, redactedWebhook } from '../saved/notice-settings';
import type { ScheduleRegistry } from '../saved/registry';
import type { SavedReportInput } from '../saved/saved-reports';

export type WebhookSettings = Pick<Deployment, 'webhookPrefixes' | 'localServers'>;

/** The definition to store, and what becomes of the address: a new one, null (none), or undefined (the saved one stays). */
export interface SplitWebhook {
  definition: SavedReportInput;
  webhook: string | null | undefined;
}

/**
 * Checks the webhook of a definition to save (`before`: the report's saved definition, when it is
 * changed) and splits it; refuses, naming notices.webhook, an address outside the prefixes or a
 * redacted form that is not the saved one's.
 */
export function splitWebhook(
  definition: SavedReportInput,
  before: SavedReportInput | undefined,
  deployment: WebhookSettings | undefined,
): SplitWebhook {
  const given = definition.notices?.webhook?.trim();
  if (!definition.notices || !given) {
    if (!definition.notices || !('webhook' in definition.notices)) return { definition, webhook: null };
    const { webhook: _removed, ...notices } = definition.notices;
    return { definition: { ...definition, notices }, webhook: null };
  }
  if (isRedactedWebhook(given)) {
    if (given === before?.notices?.webhook) return { definition, webhook: undefined };
    throw ValidationError.single(
      'notices.webhook',
      'must be the whole address: a saved address is shown only as its host, so give it again to change it',
    );
  }
  const problem = webhookAddressProblem(given, deployment);
  if (problem) throw ValidationError.single('notices.webhook', `('${redactedWebhook(given)}') ${problem}`);
  return { definition: { ...definition, notices: { ...definition.notices, webhook: redactedWebhook(given) } }, webhook: given };
}

/** Keeps the address in the owner's notice record (after the definition was saved), or removes it. */
export function storeWebhook(
  registry: ScheduleRegistry,
  spreadsheetId: string,
  reportId: string,
  webhook: string | null | undefined,
): void {
  if (webhook === undefined) return;
  const record = registry.notice(spreadsheetId, reportId);
  if (webhook === null) {
    if (!record.webhook) return;
    const { webhook: _gone, ...rest } = record;
    registry.putNotice(spreadsheetId, reportId, rest);
  } else registry.putNotice(spreadsheetId, reportId, { ...record, webhook });
}
