/**
 * End to end, the installation check of a build with "bigquery": true, under both readings of the
 * local host: beside the default build's rows (whose list test/e2e/installation-check.test.ts holds
 * exact, so a build without BigQuery has none of these), one row for an authorized datasets.get of the
 * dataset a saved report loads into (within the manifest's allowlist: BigQuery's own address, here the
 * stand-in's), telling its location and expirations (a sandbox dataset: 60 days,
 * https://cloud.google.com/bigquery/docs/sandbox), and one for Connected Sheets read without inserting
 * anything. A GET BigQuery refuses is reported in BigQuery's words, and the check still writes every row.
 */
import type { CellValue } from '../../dev/gas-host/protocol/protocol';
import { STRICT_READING } from '../../dev/gas-host/protocol/strict';
import { OWNER, startAddon, type AddonHarness } from '../support/addon-host';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { bigQueryBundle } from '../support/bundles';
import { MEDIUM_PUBLISHER_ID } from '../support/emulator';

const SHEET = 'Engage installation check';
const PROJECT = 'engage-check-1';
const DATASET = 'sandbox_check';
const DATASET_ROW = 'BigQuery answers for the dataset of your saved reports';
const CONNECTED_ROW = 'Connected Sheets answers for you (Open in Sheets)';
jest.setTimeout(180_000);

type Row = { check: string; status: string; seen: string; meaning: string };

function rows(h: AddonHarness): Row[] {
  const values = h.host.getValues(SHEET, 'A1:E14') as CellValue[][];
  return values
    .slice(1)
    .filter((r) => r[0] !== '')
    .map((r) => ({ check: String(r[0]), status: String(r[1]), seen: String(r[2]), meaning: String(r[3]) }));
}

async function check(h: AddonHarness): Promise<void> {
  const [outcome] = await h.host.callConcurrently([{ functionName: 'checkInstallation', options: { user: OWNER } }]);
  expect(outcome!.error).toBeUndefined();
  await h.host.whenRecalculated();
}

/**
 * The strict reading but for TODAY(): refused, it only makes each check wait 30 s for that probe, whose
 * row test/e2e/installation-check.test.ts covers in the strict reading; the BigQuery rows do not read it.
 */
const STRICT_BUT_TODAY = { ...STRICT_READING, volatileToday: false };

describe.each([
  ['kind', false],
  ['strict', STRICT_BUT_TODAY],
] as const)('the installation check of a BigQuery build under the %s reading', (_reading, strict) => {
  let h: AddonHarness;
  let bq: BigQueryHandle;
  beforeAll(async () => {
    h = await startAddon({ strict, autoRecalculate: true, sheets: ['Sheet1'] }, (emulator) => bigQueryBundle(bigQueryOf(emulator).rootUrl));
    bq = bigQueryOf(h.emulator);
    await bq.createDataset(PROJECT, DATASET, 'EU', { sandbox: true });
    h.signIn();
    h.host.call(
      'saveSchedule',
      [
        {
          name: 'Checked',
          kind: 'main',
          entityId: MEDIUM_PUBLISHER_ID,
          period: { type: 'lastDays', days: 30, endingYesterday: true },
          breakdowns: ['day'],
          metrics: ['revenue'],
          target: { sheetName: 'BQ', cell: 'A1' },
          schedule: { every: 'day', hour: 6 },
          bigquery: { projectId: PROJECT, datasetId: DATASET, tableId: 'checked', location: 'EU' },
        },
      ],
      { user: OWNER },
    );
  });
  afterAll(async () => {
    await h?.close();
  });

  it("adds a row for the dataset, read with the user's token, with its location and the sandbox's 60 days, and one for Connected Sheets", async () => {
    const before = (await bq.requests()).length;
    await check(h);
    const all = rows(h);
    expect(all.map((r) => r.check).slice(0, 4)).toEqual([
      'URL Fetch reaches the reporting API',
      'URL Fetch reaches the recommendations endpoint',
      DATASET_ROW,
      CONNECTED_ROW,
    ]);
    expect(all.find((r) => r.check === DATASET_ROW)).toEqual({
      check: DATASET_ROW,
      status: 'Needs attention',
      seen: `datasets.get of ${PROJECT}.${DATASET} answered with your token: in EU; partitions of new tables kept 60 days; new tables kept 60 days (not partitioned ones: a new partitioned table takes the partition expiration only).`,
      meaning:
        "BigQuery deletes each day's partition 60 days after the day (the BigQuery sandbox sets 60 days): saved reports into this dataset may cover at most the last 59 days; raise or remove the dataset's default partition expiration to keep more.",
    });
    expect(all.find((r) => r.check === CONNECTED_ROW)).toMatchObject({
      status: 'OK',
      seen: "The spreadsheet service's enableBigQueryExecution() and this spreadsheet's getDataSourceSheets() answered: 0 connected sheets.",
    });
    // One GET, authorized, and nothing written.
    const sent = (await bq.requests()).slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /bigquery/v2/projects/${PROJECT}/datasets/${DATASET}`]);
    expect(sent[0]!.authorization).toMatch(/^Bearer \S+$/);
    expect(await bq.table(PROJECT, DATASET, 'checked')).toBeNull();
  });

  it("reports a GET BigQuery refuses in BigQuery's words, and still writes every row", async () => {
    await bq.failNextRequests(403, 1, `GET /bigquery/v2/projects/${PROJECT}/datasets/${DATASET}$`, 'quotaExceeded');
    await check(h);
    const all = rows(h);
    const dataset = all.find((r) => r.check === DATASET_ROW)!;
    expect(dataset.status).toBe('Needs attention');
    expect(dataset.seen).toMatch(/^datasets\.get of engage-check-1\.sandbox_check was refused: .*Quota exceeded/);
    expect(all.find((r) => r.check === CONNECTED_ROW)!.status).toBe('OK');
    expect(all.some((r) => /^Caching/.test(r.check))).toBe(true);
  });
});
