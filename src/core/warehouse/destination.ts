/**
 * Where a saved report's rows go in BigQuery: a project, a dataset and a table, and the dataset's
 * location. Each name is checked by BigQuery's own published rules before anything is sent, and a
 * refusal names the field and the rule, so a typo never costs a request (or shows BigQuery's less
 * readable answer). Sources: project IDs, Resource Manager's Project.projectId ("6 to 30 lowercase
 * ASCII letters, digits, or hyphens; starts with a letter; no trailing hyphen",
 * cloud.google.com/resource-manager/reference/rest/v3/projects); datasets, BigQuery's
 * DatasetReference.datasetId ("letters (a-z, A-Z), numbers (0-9), or underscores (_); at most 1,024
 * characters"); tables, "Create and use tables", Table naming (cloud.google.com/bigquery/docs/tables:
 * up to 1,024 UTF-8 bytes of Unicode letters (L), marks (M), numbers (N), connectors such as the
 * underscore (Pc), dashes (Pd) and spaces (Zs)).
 */
import { ValidationError, type ValidationProblem } from '../errors';
import { utf8Length } from '../util/utf8';
import { quoted } from '../util/text';

export interface BigQueryDestination {
  projectId: string;
  datasetId: string;
  tableId: string;
  /**
   * The location the user chose for the data ("US", "EU", "europe-west1" …): the dataset must be there,
   * and the load jobs run there. Compared without case, as BigQuery reports it in either.
   */
  location: string;
}

export const PROJECT_ID_MIN_CHARS = 6;
export const PROJECT_ID_MAX_CHARS = 30;
export const DATASET_ID_MAX_CHARS = 1024;
export const TABLE_ID_MAX_BYTES = 1024;

const PROJECT_ID = /^[a-z][a-z0-9-]*[a-z0-9]$/;
/**
 * A domain-scoped project ("example.com:my-project"): the older form some Workspace organisations
 * still have; BigQuery takes it whole in every path.
 */
const DOMAIN_PREFIX = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
const DATASET_ID = /^[A-Za-z0-9_]+$/;
const TABLE_CHAR = /^[\p{L}\p{M}\p{N}\p{Pc}\p{Pd}\p{Zs}]$/u;
const LOCATION = /^[A-Za-z][A-Za-z0-9-]{1,40}$/;

function projectProblem(raw: string): string | undefined {
  if (raw === '') return 'is missing: give the ID of your Google Cloud project, as the Cloud console shows it (such as my-project-123)';
  const colon = raw.lastIndexOf(':');
  const domain = colon < 0 ? undefined : raw.slice(0, colon);
  const id = colon < 0 ? raw : raw.slice(colon + 1);
  if (domain !== undefined && !DOMAIN_PREFIX.test(domain)) {
    return `${quoted(raw)} is not a project ID: only a domain-scoped project (such as example.com:my-project) has a colon`;
  }
  if (id.length < PROJECT_ID_MIN_CHARS || id.length > PROJECT_ID_MAX_CHARS) {
    return `${quoted(raw)} is not a project ID: it has ${PROJECT_ID_MIN_CHARS} to ${PROJECT_ID_MAX_CHARS} characters (this has ${id.length}); use the project's ID, not its name`;
  }
  if (!PROJECT_ID.test(id)) {
    return `${quoted(raw)} is not a project ID: it starts with a lowercase letter, has only lowercase letters, digits and hyphens, and does not end with a hyphen; use the project's ID, not its name`;
  }
  return undefined;
}

function datasetProblem(raw: string): string | undefined {
  if (raw === '') return 'is missing: give the ID of a BigQuery dataset in the project (such as engage_reports)';
  if (raw.length > DATASET_ID_MAX_CHARS) return `has ${raw.length} characters; a dataset ID has at most ${DATASET_ID_MAX_CHARS}`;
  if (!DATASET_ID.test(raw)) {
    const bad = [...raw].find((c) => !/[A-Za-z0-9_]/.test(c))!;
    return `${quoted(raw)} is not a dataset ID: it may hold only letters (a-z, A-Z), digits and underscores, not ${quoted(bad)}`;
  }
  return undefined;
}

function tableProblem(raw: string): string | undefined {
  if (raw === '') return 'is missing: give a name for the table (the add-on creates it when it is missing)';
  const bytes = utf8Length(raw);
  if (bytes > TABLE_ID_MAX_BYTES) return `is ${bytes} bytes long in UTF-8; a table name has at most ${TABLE_ID_MAX_BYTES}`;
  const bad = [...raw].find((c) => !TABLE_CHAR.test(c));
  if (bad !== undefined) {
    const shown = bad === '$' ? "'$' (it marks a partition, such as table$20250101)" : quoted(bad);
    return `${quoted(raw)} is not a table name: it may hold letters, marks, digits, underscores, dashes and spaces, not ${shown}`;
  }
  return undefined;
}

function locationProblem(raw: string): string | undefined {
  if (raw === '') return 'is missing: give the location of the dataset (such as US, EU or europe-west1)';
  if (!LOCATION.test(raw)) return `${quoted(raw)} is not a BigQuery location: use a name such as US, EU or europe-west1`;
  return undefined;
}

/**
 * The destination with each name trimmed, or a ValidationError naming every field at fault
 * (projectId, datasetId, tableId, location), before anything is sent.
 */
export function checkDestination(given: {
  projectId?: unknown;
  datasetId?: unknown;
  tableId?: unknown;
  location?: unknown;
}): BigQueryDestination {
  const problems: ValidationProblem[] = [];
  const text = (field: keyof BigQueryDestination, value: unknown, check: (raw: string) => string | undefined): string => {
    const raw = value === undefined || value === null ? '' : typeof value === 'string' ? value.trim() : undefined;
    const problem = raw === undefined ? 'must be text' : check(raw);
    if (problem !== undefined) problems.push({ argument: field, message: `${field}: ${problem}` });
    return raw ?? '';
  };
  const destination: BigQueryDestination = {
    projectId: text('projectId', given.projectId, projectProblem),
    datasetId: text('datasetId', given.datasetId, datasetProblem),
    tableId: text('tableId', given.tableId, tableProblem),
    location: text('location', given.location, locationProblem),
  };
  if (problems.length > 0) throw new ValidationError(problems);
  return destination;
}

/** "project.dataset.table", as BigQuery's console and SQL name it (backquoted in a query). */
export function tableAddress(destination: Pick<BigQueryDestination, 'projectId' | 'datasetId' | 'tableId'>): string {
  return `${destination.projectId}.${destination.datasetId}.${destination.tableId}`;
}

/** Whether two BigQuery locations are the same: BigQuery answers "US" or "us", "europe-west1" or "EUROPE-WEST1". */
export function sameLocation(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}
