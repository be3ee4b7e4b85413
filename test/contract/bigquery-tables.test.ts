/**
 * Contract: the BigQuery stand-in's metadata calls over real HTTP (dev/bigquery/README.md):
 * datasets.get with its location, tables.insert and tables.get (schema, DAY partitioning by a field
 * and clustering echoed back), BigQuery's error shape and reasons (notFound, duplicate, invalid,
 * required/authError for a missing or non-Bearer Authorization), body validation against the copied
 * discovery schemas (unknown names refused), and the naming rules for tables and columns.
 */
import { bigQueryError, bqGet, bqPost, dailyTable, DATASET, PROJECT } from './bigquery-client';
import { bigQueryOf, type BigQueryHandle } from '../support/bigquery';
import { newEmulator, type EmulatorHandle } from '../support/emulator';

let emulator: EmulatorHandle;
let bq: BigQueryHandle;

beforeAll(async () => {
  emulator = await newEmulator();
  bq = bigQueryOf(emulator);
  await bq.createDataset(PROJECT, DATASET, 'EU');
});
afterAll(async () => {
  await emulator.close();
});

const tablesPath = `/projects/${PROJECT}/datasets/${DATASET}/tables`;

it('answers datasets.get with the dataset and its location, and 404 notFound for another', async () => {
  const found = await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}`);
  expect(found.status).toBe(200);
  expect(found.body).toEqual(
    expect.objectContaining({
      kind: 'bigquery#dataset',
      id: `${PROJECT}:${DATASET}`,
      datasetReference: { projectId: PROJECT, datasetId: DATASET },
      location: 'EU',
    }),
  );
  const missing = await bqGet(bq, `/projects/${PROJECT}/datasets/nowhere`);
  expect(bigQueryError(missing)).toEqual({
    code: 404,
    reason: 'notFound',
    status: 'NOT_FOUND',
    message: `Not found: Dataset ${PROJECT}:nowhere`,
  });
});

it('refuses a missing Authorization with 401 required and a non-Bearer one with 401 authError', async () => {
  const none = await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}`, {});
  expect(bigQueryError(none)).toEqual(expect.objectContaining({ code: 401, reason: 'required', status: 'UNAUTHENTICATED' }));
  expect(none.body.error.errors[0]).toEqual(expect.objectContaining({ location: 'Authorization', locationType: 'header' }));
  const basic = await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}`, { Authorization: 'Basic dXNlcjpwYXNz' });
  expect(bigQueryError(basic)).toEqual(expect.objectContaining({ code: 401, reason: 'authError' }));
  const empty = await bqGet(bq, `/projects/${PROJECT}/datasets/${DATASET}`, { Authorization: 'Bearer ' });
  expect(bigQueryError(empty).reason).toBe('authError');
});

it('creates a table partitioned by day and clustered, and tables.get echoes schema, partitioning and clustering', async () => {
  const created = await bqPost(bq, tablesPath, { ...dailyTable('daily'), description: 'Engage daily report' });
  expect(created.status).toBe(200);
  const got = await bqGet(bq, `${tablesPath}/daily`);
  expect(got.status).toBe(200);
  expect(got.body).toEqual(
    expect.objectContaining({
      kind: 'bigquery#table',
      id: `${PROJECT}:${DATASET}.daily`,
      tableReference: { projectId: PROJECT, datasetId: DATASET, tableId: 'daily' },
      timePartitioning: { type: 'DAY', field: 'day' },
      clustering: { fields: ['publisher_id', 'country'] },
      description: 'Engage daily report',
      numRows: '0',
      location: 'EU',
      type: 'TABLE',
    }),
  );
  // Aliases come back canonical, and a field without a mode is NULLABLE.
  expect(got.body.schema.fields.map((f: { name: string; type: string; mode: string }) => `${f.name}:${f.type}:${f.mode}`)).toEqual([
    'day:DATE:REQUIRED',
    'publisher_id:STRING:REQUIRED',
    'country:STRING:NULLABLE',
    'page_views:INTEGER:NULLABLE',
    'revenue:NUMERIC:NULLABLE',
    'ctr:FLOAT:NULLABLE',
  ]);
  expect(typeof got.body.creationTime).toBe('string');
});

it('answers 409 duplicate for a table that exists and 404 for a table or dataset that does not', async () => {
  await bqPost(bq, tablesPath, dailyTable('twice'));
  const again = await bqPost(bq, tablesPath, dailyTable('twice'));
  expect(bigQueryError(again)).toEqual(expect.objectContaining({ code: 409, reason: 'duplicate', status: 'ALREADY_EXISTS' }));
  expect(bigQueryError(await bqGet(bq, `${tablesPath}/absent`))).toEqual(
    expect.objectContaining({ code: 404, reason: 'notFound', message: `Not found: Table ${PROJECT}:${DATASET}.absent` }),
  );
  const otherDataset = await bqPost(bq, `/projects/${PROJECT}/datasets/other/tables`, {
    ...dailyTable('x'),
    tableReference: { projectId: PROJECT, datasetId: 'other', tableId: 'x' },
  });
  expect(bigQueryError(otherDataset).reason).toBe('notFound');
});

it('refuses table names BigQuery refuses (punctuation, a decorator, over 1,024 characters) with 400 invalid', async () => {
  for (const tableId of ['daily.report', 'daily$20260101', 'a/b', 'x'.repeat(1025)]) {
    const result = await bqPost(bq, tablesPath, { ...dailyTable(tableId) });
    expect(bigQueryError(result)).toEqual(expect.objectContaining({ code: 400, reason: 'invalid' }));
    expect(result.body.error.message).toContain('Invalid table ID');
  }
  // Letters of any script, dashes and spaces are allowed (Unicode L, M, N, Pc, Pd, Zs).
  for (const tableId of ['résumé_2026', 'daily-report', 'daily report', 'x'.repeat(1024)]) {
    expect((await bqPost(bq, tablesPath, dailyTable(tableId))).status).toBe(200);
  }
});

it('refuses unknown names and wrong JSON types anywhere in the body, as Google’s JSON front end does', async () => {
  const unknownTop = await bqPost(bq, tablesPath, { ...dailyTable('u1'), partitioning: { type: 'DAY' } });
  expect(bigQueryError(unknownTop)).toEqual(expect.objectContaining({ code: 400, reason: 'invalid' }));
  expect(unknownTop.body.error.message).toBe(`Invalid JSON payload received. Unknown name "partitioning" at 'table': Cannot find field.`);
  const unknownNested = await bqPost(bq, tablesPath, { ...dailyTable('u2'), timePartitioning: { type: 'DAY', column: 'day' } });
  expect(unknownNested.body.error.message).toBe(
    `Invalid JSON payload received. Unknown name "column" at 'table.timePartitioning': Cannot find field.`,
  );
  const wrongType = await bqPost(bq, tablesPath, { ...dailyTable('u3'), clustering: { fields: 'publisher_id' } });
  expect(bigQueryError(wrongType).reason).toBe('invalid');
  expect(wrongType.body.error.message).toContain("'table.clustering.fields'");
  const notJson = await bqPost(bq, tablesPath, '{"tableReference":');
  expect(bigQueryError(notJson).reason).toBe('invalid');
  // Output-only fields are ignored, not refused.
  expect((await bqPost(bq, tablesPath, { ...dailyTable('u4'), numRows: '5', etag: 'x' })).status).toBe(200);
});

it('refuses bad columns, partitioning on a non-date field and more than 4 clustering fields', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ schema: { fields: [{ name: '1st', type: 'STRING' }] } }, /Invalid field name "1st"/],
    [
      {
        schema: {
          fields: [
            { name: 'a', type: 'STRING' },
            { name: 'A', type: 'STRING' },
          ],
        },
      },
      /Field A already exists/,
    ],
    [{ schema: { fields: [{ name: 'a', type: 'TEXT' }] } }, /TEXT is not a valid value/],
    [{ timePartitioning: { type: 'DAY', field: 'country' } }, /can only be of type TIMESTAMP, DATE or DATETIME. The type found is: STRING/],
    [{ timePartitioning: { type: 'WEEK', field: 'day' } }, /timePartitioning.type: WEEK/],
    [
      { clustering: { fields: ['publisher_id', 'country', 'day', 'page_views', 'revenue'] } },
      /Too many clustering fields: 5, only 4 allowed/,
    ],
    [{ clustering: { fields: ['ctr'] } }, /ctr is of type FLOAT which is not supported for clustering/],
  ];
  for (const [override, message] of cases) {
    const result = await bqPost(bq, tablesPath, { ...dailyTable('bad'), ...override });
    expect(bigQueryError(result).reason).toBe('invalid');
    expect(result.body.error.message).toMatch(message);
  }
  expect(await bq.table(PROJECT, DATASET, 'bad')).toBeNull();
});
