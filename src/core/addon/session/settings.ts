/**
 * The add-on's settings: one zod-validated object with its defaults in one place. Settings live in
 * the user's own properties, because the recommendations API key is a secret; what the sidebar is
 * shown of them (`publicSettings`) never carries the key, only whether one is set. A missing setting
 * produces an error that names the setting and where to set it.
 *
 * The deployment (engage.deploy.json) supplies the two addresses' defaults, and its whitelist decides
 * which addresses may be saved: Apps Script refuses to fetch anything else, so an address outside it
 * is refused here, once, with the prefixes that are allowed (loopback test servers excepted).
 */
import * as z from '../../util/zod';
import { addressPrefixes, addressProblem, type Deployment } from '../../deployment';
import { ValidationError } from '../../errors';
import type { KeyValueStore } from '../../ports';
import { quoted } from '../../util/text';

export const SETTINGS_STORE_KEY = 'engage.settings';
const WHERE = 'set it in the Engage sidebar under Settings';

/** Room is left for the query the add-on appends (key, contentUrl, ...) within URL Fetch's 2,000 characters. */
export const SETTINGS_URL_MAX_CHARS = 500;
const text = () => z.string({ error: 'must be text' });

const httpUrl = (what: string) =>
  text().check(
    z.trim(),
    z.maxLength(SETTINGS_URL_MAX_CHARS, `must be at most ${SETTINGS_URL_MAX_CHARS} characters`),
    z.refine((v) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(v), `must be an http(s) address (${what})`),
  );

export const settingsSchema = z.object({
  reportingBaseUrl: z.optional(
    z.pipe(
      httpUrl('the reporting base address, ending with /engage/v2').check(
        z.refine((v) => /\/engage\/v2\/?$/.test(v), 'must end with /engage/v2'),
      ),
      z.transform((v) => v.replace(/\/+$/, '')),
    ),
  ),
  recommendationsUrl: z.optional(httpUrl('the in-chat recommendations endpoint')),
  apiKey: z.optional(
    text().check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(512, 'must be at most 512 characters'),
      z.refine((v) => !/\s/.test(v), 'must not contain spaces'),
      z.refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters'),
    ),
  ),
  widgetId: z.optional(
    text().check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(110, 'must be at most 110 characters'),
      z.refine((v) => /^[\w.-]+$/.test(v), 'may hold only letters, digits, "_", "-" and "."'),
    ),
  ),
});

export type Settings = z.infer<typeof settingsSchema>;

/** What the sidebar may see: everything but the secret. */
export interface PublicSettings {
  reportingBaseUrl?: string;
  recommendationsUrl?: string;
  widgetId?: string;
  hasApiKey: boolean;
  /** The whitelist prefixes each address must start with (addressPrefixes; empty: any https address). */
  allowedAddresses: { reportingBaseUrl: string[]; recommendationsUrl: string[] };
  /** A build for local servers (the playground's and the tests'): http to this machine is taken too. */
  localServers: boolean;
}

export type SettingName = keyof Settings;

const LABELS: Record<SettingName, string> = {
  reportingBaseUrl: 'the reporting base address',
  recommendationsUrl: 'the recommendations address',
  apiKey: 'the recommendations API key',
  widgetId: 'the widget ID',
};

/** What is fetched below each address setting: the reporting base is a folder, the recommendations address the endpoint itself. */
const FETCHED_ADDRESS: Partial<Record<SettingName, (value: string) => string>> = {
  reportingBaseUrl: (base) => `${base}/`,
  recommendationsUrl: (url) => url,
};

export class SettingsStore {
  private saved: Settings | undefined;

  constructor(
    private readonly store: KeyValueStore,
    private readonly deployment?: Deployment,
  ) {}

  /** The settings in effect: what the user saved over the deployment's default addresses. */
  load(): Settings {
    const defaults: Settings = {};
    if (this.deployment) {
      defaults.reportingBaseUrl = this.deployment.reportingBaseUrl;
      defaults.recommendationsUrl = this.deployment.recommendationsUrl;
    }
    return { ...defaults, ...this.stored() };
  }

  /**
   * What the user saved; defaults are not stored, so a new deployment's defaults reach everyone who
   * kept them. Read once per store (one execution): each read of the user's properties counts
   * against Apps Script's daily Properties quota.
   */
  private stored(): Settings {
    if (this.saved) return this.saved;
    const raw = this.store.get(SETTINGS_STORE_KEY);
    let saved: Settings = {};
    try {
      const parsed = raw ? settingsSchema.safeParse(JSON.parse(raw)) : undefined;
      if (parsed?.success) saved = parsed.data;
    } catch {
      // Unreadable settings are no settings.
    }
    this.saved = saved;
    return saved;
  }

  /**
   * Validates a change and stores the merged result. A field given as "" or null is cleared; a field
   * left out keeps its value (so the sidebar can save without ever having read the API key).
   */
  save(change: Record<string, unknown>): Settings {
    if (typeof change !== 'object' || change === null || Array.isArray(change)) {
      throw ValidationError.single('settings', 'must be an object of settings');
    }
    const known = Object.keys(settingsSchema.shape) as SettingName[];
    const unknown = Object.keys(change).filter((k) => !known.includes(k as SettingName));
    if (unknown.length > 0) throw ValidationError.single(unknown[0]!, `is not a setting (known: ${known.join(', ')})`);
    const merged: Record<string, unknown> = { ...this.stored() };
    for (const name of known) {
      if (!(name in change)) continue;
      const value = change[name];
      if (value === '' || value === null || value === undefined) delete merged[name];
      else merged[name] = value;
    }
    const parsed = settingsSchema.safeParse(merged);
    const problems = parsed.success
      ? this.addressProblems(parsed.data)
      : parsed.error.issues.map((issue) => ({ name: String(issue.path[0] ?? 'settings'), rule: issue.message }));
    if (problems.length > 0 || !parsed.success) {
      throw new ValidationError(
        problems.map(({ name, rule }) => {
          // Never echo the key back: it is a secret.
          const shown = name === 'apiKey' ? '' : ` (${quoted(String(merged[name]))})`;
          return { argument: name, message: `${name}${shown}: ${rule}` };
        }),
      );
    }
    this.store.set(SETTINGS_STORE_KEY, JSON.stringify(parsed.data));
    this.saved = parsed.data;
    return this.load();
  }

  /** Addresses Apps Script would refuse to fetch: outside the deployment's whitelist, or plain http beyond this machine. */
  private addressProblems(settings: Settings): Array<{ name: SettingName; rule: string }> {
    const problems: Array<{ name: SettingName; rule: string }> = [];
    for (const [name, fetched] of Object.entries(FETCHED_ADDRESS) as Array<[SettingName, (value: string) => string]>) {
      const value = settings[name];
      const prefixes = this.deployment ? addressPrefixes(this.deployment)[name as keyof ReturnType<typeof addressPrefixes>] : [];
      const problem = value === undefined ? undefined : addressProblem(fetched(value), this.deployment, prefixes);
      if (problem) problems.push({ name, rule: problem });
    }
    return problems;
  }

  /** The value of a setting, or a ValidationError that says which setting is missing and where to set it. */
  require<K extends SettingName>(name: K): NonNullable<Settings[K]> {
    const value = this.load()[name];
    if (value === undefined || value === '') throw ValidationError.single(name, `${LABELS[name]} is not set: ${WHERE}`);
    return value as NonNullable<Settings[K]>;
  }
}

export function publicSettings(settings: Settings, deployment?: Deployment): PublicSettings {
  const shown: PublicSettings = {
    hasApiKey: Boolean(settings.apiKey),
    allowedAddresses: deployment ? addressPrefixes(deployment) : { reportingBaseUrl: [], recommendationsUrl: [] },
    localServers: deployment?.localServers === true,
  };
  if (settings.reportingBaseUrl) shown.reportingBaseUrl = settings.reportingBaseUrl;
  if (settings.recommendationsUrl) shown.recommendationsUrl = settings.recommendationsUrl;
  if (settings.widgetId) shown.widgetId = settings.widgetId;
  return shown;
}
