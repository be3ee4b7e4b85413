/**
 * The BigQuery variant of the tests' deployment is built once per jest run with a placeholder root for
 * the stand-in, which bigQueryBundle replaces with an emulator instance's (test/support/bundles.ts). The
 * replacement is exactly the build made with that address: Code.js, sidebar.html and appsscript.json
 * are the same text, and the placeholder is nowhere left.
 */
import { BIGQUERY_PLACEHOLDER_ROOT, bigQueryBundle, bigQueryBundleBuiltFor } from '../support/bundles';

jest.setTimeout(60_000);

it("the BigQuery variant with an instance's root is the build made with that root", async () => {
  const root = 'http://127.0.0.1:48123';
  const [swapped, built] = await Promise.all([bigQueryBundle(root), bigQueryBundleBuiltFor(root)]);
  expect(built.code).toContain('http://127.0.0.1:48123/');
  expect(built.manifest).toEqual(swapped.manifest);
  expect(swapped.code === built.code).toBe(true);
  expect(swapped.sidebar === built.sidebar).toBe(true);
  for (const text of [swapped.code, swapped.sidebar, JSON.stringify(swapped.manifest)])
    expect(text).not.toContain(BIGQUERY_PLACEHOLDER_ROOT);
});
