/**
 * The deployment config (engage.deploy.json, or the file named by `--config` or ENGAGE_DEPLOY_CONFIG):
 * the Engage addresses one deployment calls, its users' account type, which spreadsheets it may
 * open (spreadsheetAccess: "all", the default, or "current"), and where notices may post
 * (webhookPrefixes, optional), and whether saved reports may load into BigQuery (bigquery, optional;
 * bigqueryBaseUrl points a local build at a stand-in). Validated with zod here, at
 * build time, so a typo stops the build with the field and the rule instead of shipping a manifest
 * Apps Script refuses. The build turns it into the manifest's urlFetchWhitelist and spreadsheet scope,
 * and the add-on's default settings (src/core/deployment.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { isLoopbackUrl, whitelistFor, type Deployment, type SpreadsheetAccess } from '../src/core/deployment';

export const DEFAULT_CONFIG_FILE = 'engage.deploy.json';
export const CONFIG_ENV = 'ENGAGE_DEPLOY_CONFIG';

/** An https address with a host and a path, as a whitelist prefix needs; no query, no fragment. */
const httpsAddress = (what: string) =>
  z
    .string({ error: `must be the ${what} as text` })
    .trim()
    .regex(/^https:\/\/[a-z0-9.-]+(:\d+)?\/[^\s?#]*$/i, `must be an https address with a path and no query (the ${what})`);

/** A whitelist prefix for webhooks: https, a host (a leading "*." allowed, as Apps Script allows), a path ending in "/". */
const webhookPrefix = z
  .string({ error: 'must be an https address prefix as text' })
  .trim()
  .regex(
    /^https:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?\/([^\s?#*]*\/)?$/i,
    'must be an https address prefix with a path ending in / and no query, such as https://chat.googleapis.com/v1/spaces/',
  );

export const deployConfigSchema = z
  .strictObject({
    $comment: z.string().optional(),
    reportingBaseUrl: httpsAddress('reporting base address').refine((v) => /\/engage\/v2\/?$/.test(v), 'must end with /engage/v2/'),
    recommendationsUrl: httpsAddress('in-chat recommendations endpoint').refine(
      (v) => !v.endsWith('/'),
      'must be the endpoint itself, not a folder ending in /',
    ),
    accountType: z.enum(['consumer', 'workspace'], {
      error: 'must be "consumer" (20,000 URL fetches and 90 minutes of triggers a day) or "workspace" (100,000 and 6 hours)',
    }),
    localServers: z
      .boolean({ error: 'must be true or false (true only for the playground and the tests, whose Engage runs on this machine)' })
      .optional(),
    webhookPrefixes: z
      .array(webhookPrefix, { error: 'must be a list of https address prefixes, such as ["https://chat.googleapis.com/v1/spaces/"]' })
      .max(20, 'may list at most 20 prefixes')
      .optional(),
    spreadsheetAccess: z
      .enum(['all', 'current'], {
        error:
          'must be "all" (the spreadsheets scope: scheduled refreshes open each spreadsheet by ID) or "current" (spreadsheets.currentonly: each spreadsheet refreshes only from its own trigger)',
      })
      .optional(),
    bigquery: z
      .boolean({
        error:
          'must be true or false (true: saved reports may load into BigQuery, and the manifest asks for the bigquery scope and its hosts)',
      })
      .optional(),
    bigqueryBaseUrl: z
      .string({ error: 'must be the address of a BigQuery stand-in on this machine as text' })
      .trim()
      .refine(
        (v) => /^https?:\/\/[^/?#\s]+\/$/i.test(v) && isLoopbackUrl(v),
        'must be the root of a BigQuery stand-in on this machine ending in /, such as http://127.0.0.1:9050/ (the paths bigquery/v2/ and upload/bigquery/v2/ follow it)',
      )
      .optional(),
  })
  .check((ctx) => {
    const config = ctx.value;
    if (config.bigqueryBaseUrl === undefined) return;
    if (config.localServers !== true || config.bigquery !== true) {
      ctx.issues.push({
        code: 'custom',
        input: config.bigqueryBaseUrl,
        path: ['bigqueryBaseUrl'],
        message:
          'may be given only with "localServers": true and "bigquery": true (a build for Google always calls https://bigquery.googleapis.com/)',
      });
    }
  });

/** What a config without spreadsheetAccess gets: scheduled refreshes that work with or without a document. */
export const DEFAULT_SPREADSHEET_ACCESS: SpreadsheetAccess = 'all';

export type DeployConfig = z.infer<typeof deployConfigSchema>;

/** The config file to use: `--config <file>` first, then ENGAGE_DEPLOY_CONFIG, then engage.deploy.json in the repository. */
export function configPath(root: string, argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): string {
  const flag = argv.indexOf('--config');
  const given = flag >= 0 ? argv[flag + 1] : env[CONFIG_ENV];
  if (flag >= 0 && !given) throw new Error('--config needs a file name, for example --config my.deploy.json');
  // A file named on the command line is relative to where the command runs (npm runs scripts in the repository).
  return given ? path.resolve(given) : path.join(root, DEFAULT_CONFIG_FILE);
}

/** Reads and checks a config file; the error names the file, the field and the rule. */
export function readDeployConfig(file: string): DeployConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: cannot be read as JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = deployConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the file'} ${issue.message}`);
    throw new Error(`${file}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** What the bundle is built with (the settings' defaults, the whitelist it checks addresses against, the quotas). */
export function deploymentOf(config: DeployConfig): Deployment {
  const reportingBaseUrl = config.reportingBaseUrl.replace(/\/+$/, '');
  return {
    reportingBaseUrl,
    recommendationsUrl: config.recommendationsUrl,
    urlFetchWhitelist: whitelistFor(reportingBaseUrl, config.recommendationsUrl),
    accountType: config.accountType,
    ...(config.localServers ? { localServers: true } : {}),
    spreadsheetAccess: config.spreadsheetAccess ?? DEFAULT_SPREADSHEET_ACCESS,
    ...(config.webhookPrefixes && config.webhookPrefixes.length > 0 ? { webhookPrefixes: config.webhookPrefixes } : {}),
    ...(config.bigquery === true ? { bigquery: true } : {}),
    ...(config.bigqueryBaseUrl !== undefined ? { bigqueryBaseUrl: config.bigqueryBaseUrl } : {}),
  };
}
