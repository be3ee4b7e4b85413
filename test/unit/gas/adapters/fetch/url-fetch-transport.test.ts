/**
 * The UrlFetchApp transport of a build with "bigquery": true reads a failure to reach BigQuery against
 * the manifest's whole whitelist, BigQuery's addresses among them. Read against Engage's addresses
 * alone, a DNS failure of https://bigquery.googleapis.com/ (the playground, offline, with "bigquery"
 * set by hand) was taken for a refusal, and saving a destination said the manifest did not list
 * BigQuery's addresses though the built manifest lists both.
 */
import type { Deployment } from '../../../../../src/core';
import { BIGQUERY_WHITELIST, manifestWhitelist } from '../../../../../src/core/deployment';

type Core = typeof import('../../../../../src/core');
type Adapter = typeof import('../../../../../src/gas/adapters/fetch/url-fetch-transport');

const DEPLOYMENT: Deployment = {
  reportingBaseUrl: 'https://engage-api.example.com/engage/v2',
  recommendationsUrl: 'https://engage-recs.example.com/v1/recommendations',
  urlFetchWhitelist: ['https://engage-api.example.com/engage/v2/', 'https://engage-recs.example.com/v1/'],
  accountType: 'consumer',
  spreadsheetAccess: 'all',
  webhookPrefixes: ['https://hooks.slack.com/services/'],
  bigquery: true,
};

/**
 * The adapter and the core as a build of DEPLOYMENT loads them (esbuild puts the deployment in
 * __ENGAGE_DEPLOYMENT__), from one module registry so that the core knows the adapter's TransportError.
 */
function modules(): { UrlFetchTransport: Adapter['UrlFetchTransport']; BigQueryClient: Core['BigQueryClient'] } {
  (globalThis as { __ENGAGE_DEPLOYMENT__?: Deployment }).__ENGAGE_DEPLOYMENT__ = DEPLOYMENT;
  let loaded: ReturnType<typeof modules> | undefined;
  jest.isolateModules(() => {
    const adapter = require('../../../../../src/gas/adapters/fetch/url-fetch-transport') as Adapter;
    const core = require('../../../../../src/core') as Core;
    loaded = { UrlFetchTransport: adapter.UrlFetchTransport, BigQueryClient: core.BigQueryClient };
  });
  return loaded!;
}

/** A UrlFetchApp that throws `message` for every address, as Apps Script does when a request gets no answer. */
function failingUrlFetch(message: (url: string) => string): { fetch(url: string): never; fetchAll(): never; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch(url: string): never {
      urls.push(url);
      throw new Error(message(url));
    },
    fetchAll(): never {
      throw new Error('not used');
    },
  };
}

function clientOver(urlFetch: ReturnType<typeof failingUrlFetch>): InstanceType<Core['BigQueryClient']> {
  const { UrlFetchTransport, BigQueryClient } = modules();
  let now = Date.parse('2026-12-01T10:00:00Z');
  return new BigQueryClient({
    transport: new UrlFetchTransport(urlFetch as unknown as GoogleAppsScript.URL_Fetch.UrlFetchApp),
    token: { oauthToken: () => 'token' },
    clock: { now: () => now },
    sleeper: { sleep: (ms: number) => void (now += ms) },
  });
}

afterAll(() => {
  delete (globalThis as { __ENGAGE_DEPLOYMENT__?: Deployment }).__ENGAGE_DEPLOYMENT__;
});

it("lists BigQuery's two addresses in the manifest's whitelist of such a build", () => {
  expect(manifestWhitelist(DEPLOYMENT)).toEqual(expect.arrayContaining([...BIGQUERY_WHITELIST]));
});

/** What BigQuery's client throws for the dataset lookup over `urlFetch`, and every address it asked. */
function datasetLookupFailure(urlFetch: ReturnType<typeof failingUrlFetch>): { message: string; code?: string } {
  try {
    clientOver(urlFetch).datasetLocation('my-project', 'engage', Date.parse('2026-12-01T10:05:00Z'));
  } catch (e) {
    return e as { message: string; code?: string };
  }
  throw new Error('the lookup did not fail');
}

it('reads a DNS failure of BigQuery as an address not found, never as an address the manifest does not list', () => {
  const urlFetch = failingUrlFetch((url) => `Exception: DNS error: ${url}`);
  const failure = datasetLookupFailure(urlFetch);
  expect(failure.message).not.toMatch(/manifest/);
  expect(failure.code).toBe('ADDRESS_NOT_FOUND');
  expect(failure.message).toMatch(/bigquery\.googleapis\.com/);
  expect(urlFetch.urls).toEqual(['https://bigquery.googleapis.com/bigquery/v2/projects/my-project/datasets/engage']);
});

it('reads a lost connection to BigQuery as no answer, tried three times', () => {
  const urlFetch = failingUrlFetch((url) => `Exception: Address unavailable: ${url}`);
  const failure = datasetLookupFailure(urlFetch);
  expect(failure.code).toBe('CONNECTION_FAILED');
  expect(failure.message).toMatch(/no answer from BigQuery \(Exception: Address unavailable: https:\/\/bigquery\.googleapis\.com\//);
  expect(urlFetch.urls).toHaveLength(3);
});

it("still reads Apps Script's own refusal of an address as one", () => {
  const urlFetch = failingUrlFetch(
    (url) => `Exception: Request to ${url} failed because the URL has not been whitelisted in the script manifest.`,
  );
  const client = clientOver(urlFetch);
  expect(() => client.datasetLocation('my-project', 'engage', Date.parse('2026-12-01T10:05:00Z'))).toThrow(
    /Apps Script may not call BigQuery from this installation of Engage \(its manifest does not list BigQuery's addresses/,
  );
  expect(urlFetch.urls).toHaveLength(1);
});

it('reads a failure of an address outside every prefix of the manifest as a refusal, whatever its words', () => {
  const { UrlFetchTransport } = modules();
  const urlFetch = failingUrlFetch((url) => `Exception: DNS error: ${url}`);
  const transport = new UrlFetchTransport(urlFetch as unknown as GoogleAppsScript.URL_Fetch.UrlFetchApp);
  // The refusal names the addresses its caller may call (Engage's), not every prefix of the manifest.
  expect(() => transport.fetch({ method: 'get', url: 'https://elsewhere.example.org/bigquery/v2/x' })).toThrow(
    expect.objectContaining({ kind: 'not-allowed', allowedPrefixes: DEPLOYMENT.urlFetchWhitelist }),
  );
});
