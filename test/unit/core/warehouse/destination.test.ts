/**
 * A BigQuery destination is checked by BigQuery's published naming rules before anything is sent
 * (src/core/warehouse/destination.ts cites them): every refusal names its field and the rule.
 */
import { checkDestination, sameLocation, tableAddress } from '../../../../src/core/warehouse/destination';
import { ValidationError } from '../../../../src/core/errors';

const GOOD = { projectId: 'my-project-123', datasetId: 'engage_reports', tableId: 'daily_by_doc', location: 'EU' };

function refusal(given: Record<string, unknown>): string {
  try {
    checkDestination(given);
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('checkDestination', () => {
  it('takes a destination that follows every rule, trimmed, and names it as BigQuery does', () => {
    const destination = checkDestination({ ...GOOD, projectId: ' my-project-123 ', tableId: 'Tägliche Zahlen-2025 数据' });
    expect(destination).toEqual({ ...GOOD, tableId: 'Tägliche Zahlen-2025 数据' });
    expect(tableAddress(destination)).toBe('my-project-123.engage_reports.Tägliche Zahlen-2025 数据');
    expect(checkDestination({ ...GOOD, projectId: 'example.com:my-project' }).projectId).toBe('example.com:my-project');
  });

  it('refuses a missing project, dataset, table and location, naming each', () => {
    expect(refusal({})).toBe(
      'projectId: is missing: give the ID of your Google Cloud project, as the Cloud console shows it (such as my-project-123); ' +
        'datasetId: is missing: give the ID of a BigQuery dataset in the project (such as engage_reports); ' +
        'tableId: is missing: give a name for the table (the add-on creates it when it is missing); ' +
        'location: is missing: give the location of the dataset (such as US, EU or europe-west1)',
    );
  });

  it.each([
    ['My-Project', 'starts with a lowercase letter, has only lowercase letters, digits and hyphens'],
    ['1project', 'starts with a lowercase letter'],
    ['my-project-', 'does not end with a hyphen'],
    ['proj', 'it has 6 to 30 characters (this has 4)'],
    ['a'.repeat(31), 'it has 6 to 30 characters (this has 31)'],
    ['my_project', 'has only lowercase letters, digits and hyphens'],
    ['bad domain:my-project', 'only a domain-scoped project (such as example.com:my-project) has a colon'],
  ])('refuses the project ID %j: %s', (projectId, rule) => {
    const message = refusal({ ...GOOD, projectId });
    expect(message.startsWith('projectId: ')).toBe(true);
    expect(message).toContain(rule);
  });

  it('refuses a dataset ID with another character than letters, digits and underscores, or longer than 1,024 characters', () => {
    expect(refusal({ ...GOOD, datasetId: 'engage-reports' })).toBe(
      "datasetId: 'engage-reports' is not a dataset ID: it may hold only letters (a-z, A-Z), digits and underscores, not '-'",
    );
    expect(refusal({ ...GOOD, datasetId: 'é' })).toMatch(/^datasetId: 'é' is not a dataset ID/);
    expect(refusal({ ...GOOD, datasetId: 'd'.repeat(1025) })).toBe('datasetId: has 1025 characters; a dataset ID has at most 1024');
    expect(checkDestination({ ...GOOD, datasetId: 'd'.repeat(1024) }).datasetId).toHaveLength(1024);
  });

  it('refuses a table name with a character outside letters, marks, numbers, connectors, dashes and spaces, or over 1,024 UTF-8 bytes', () => {
    expect(refusal({ ...GOOD, tableId: 'daily$20250101' })).toBe(
      "tableId: 'daily$20250101' is not a table name: it may hold letters, marks, digits, underscores, dashes and spaces, not '$' (it marks a partition, such as table$20250101)",
    );
    expect(refusal({ ...GOOD, tableId: 'daily.by.doc' })).toContain("not '.'");
    expect(refusal({ ...GOOD, tableId: 'daily/2025' })).toContain("not '/'");
    // 342 three-byte characters are 1,026 bytes though only 342 characters.
    expect(refusal({ ...GOOD, tableId: '数'.repeat(342) })).toBe('tableId: is 1026 bytes long in UTF-8; a table name has at most 1024');
    expect(checkDestination({ ...GOOD, tableId: '数'.repeat(341) }).tableId).toHaveLength(341);
  });

  it('refuses a location that is no location name, and text of another type', () => {
    expect(refusal({ ...GOOD, location: 'europe west' })).toBe(
      "location: 'europe west' is not a BigQuery location: use a name such as US, EU or europe-west1",
    );
    expect(refusal({ ...GOOD, tableId: 42 })).toBe('tableId: must be text');
  });
});

describe('sameLocation', () => {
  it('compares without case, as BigQuery answers either', () => {
    expect(sameLocation('us', 'US')).toBe(true);
    expect(sameLocation('EUROPE-WEST1', 'europe-west1')).toBe(true);
    expect(sameLocation('EU', 'europe-west1')).toBe(false);
  });
});
