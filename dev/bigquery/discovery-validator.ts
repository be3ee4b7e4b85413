/**
 * Validates a request body against the schemas copied from BigQuery's discovery document
 * (discovery-schemas.json, source named inside). Google's JSON front end maps a body onto the API's
 * protocol buffers and refuses what does not fit: an unknown name is a 400
 * `Invalid JSON payload received. Unknown name "x" at 'job.configuration.load': Cannot find field.`
 * (reason invalid; the wording as BigQuery users report it, e.g. r-dbi/bigrquery#361), and so is a
 * value of the wrong JSON type. Output-only (readOnly) fields are accepted and ignored, as the
 * reference says they are. A $ref to a schema the stand-in did not copy is refused with a message
 * that says the stand-in does not model it: stricter than BigQuery, never kinder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BigQueryError } from './model/errors';

interface PropertySchema {
  type?: string;
  format?: string;
  $ref?: string;
  items?: PropertySchema;
  enum?: string[];
  readOnly?: boolean;
  pattern?: string;
  properties?: Record<string, PropertySchema>;
  additionalProperties?: PropertySchema;
}

// Read as data, not imported, so the copy stays a plain JSON file the import graph need not follow.
const discovery = JSON.parse(fs.readFileSync(path.join(__dirname, 'discovery-schemas.json'), 'utf8')) as {
  source: Record<string, string>;
  schemas: Record<string, { properties: Record<string, PropertySchema> }>;
};
const SCHEMAS = discovery.schemas;

export const DISCOVERY_SOURCE = discovery.source;

function invalid(message: string): BigQueryError {
  return new BigQueryError('invalid', `Invalid JSON payload received. ${message}`);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value;
}

function checkScalar(schema: PropertySchema, value: unknown, path: string): void {
  const type = schema.type;
  if (type === 'any' || type === undefined) return;
  const isIntegerText = typeof value === 'string' && /^-?\d+$/.test(value);
  switch (type) {
    case 'string':
      // int64/uint64 travel as strings in JSON, and the proto mapping also takes a JSON integer for them.
      if (schema.format && /int64$/.test(schema.format)) {
        if (!(isIntegerText || (typeof value === 'number' && Number.isInteger(value)))) {
          throw invalid(`Invalid value at '${path}' (${schema.format}), ${JSON.stringify(value)}`);
        }
        return;
      }
      if (typeof value !== 'string') throw invalid(`Invalid value at '${path}' (TYPE_STRING), ${JSON.stringify(value)}`);
      if (schema.enum && !schema.enum.includes(value)) throw invalid(`Invalid value at '${path}', "${value}"`);
      if (schema.pattern && !new RegExp(`^(?:${schema.pattern})$`, 'u').test(value)) {
        throw invalid(`Invalid value at '${path}', "${value}"`);
      }
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(`Invalid value at '${path}' (TYPE_BOOL), ${JSON.stringify(value)}`);
      return;
    case 'integer':
    case 'number':
      if (!(typeof value === 'number' || isIntegerText) || (type === 'integer' && !Number.isInteger(Number(value)))) {
        throw invalid(`Invalid value at '${path}' (TYPE_${type === 'integer' ? 'INT32' : 'DOUBLE'}), ${JSON.stringify(value)}`);
      }
      return;
    default:
      throw invalid(`Invalid value at '${path}': the stand-in does not know type ${type}`);
  }
}

function checkValue(schema: PropertySchema, value: unknown, path: string): void {
  if (schema.readOnly) return;
  if (value === null) return; // proto3 JSON: null means "not set".
  if (schema.$ref) {
    checkObject(schema.$ref, value, path);
    return;
  }
  if (schema.type === 'array') {
    if (!Array.isArray(value)) throw invalid(`Invalid value at '${path}': Proto field is repeating, cannot start a ${typeName(value)}.`);
    for (const [index, item] of value.entries()) checkValue(schema.items ?? {}, item, `${path}[${index}]`);
    return;
  }
  if (schema.type === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) throw invalid(`Invalid value at '${path}': expected an object.`);
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [name, item] of entries) {
      const property = schema.properties ? schema.properties[name] : schema.additionalProperties;
      if (!property) throw invalid(`Unknown name "${name}" at '${path}': Cannot find field.`);
      checkValue(property, item, `${path}.${name}`);
    }
    return;
  }
  if (Array.isArray(value)) throw invalid(`Unknown name at '${path}': Proto field is not repeating, cannot start list.`);
  checkScalar(schema, value, path);
}

function checkObject(schemaName: string, value: unknown, path: string): void {
  const schema = SCHEMAS[schemaName];
  if (!schema) {
    throw new BigQueryError('invalid', `The BigQuery stand-in does not model '${path}' (schema ${schemaName} of the discovery document)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`Invalid value at '${path}': expected a ${schemaName} object, got a ${typeName(value)}.`);
  }
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    const property = schema.properties[name];
    if (!property) throw invalid(`Unknown name "${name}" at '${path}': Cannot find field.`);
    checkValue(property, item, `${path}.${name}`);
  }
}

/** Throws BigQuery's 400 when `body` does not fit the named schema; `root` is the name the messages start from (e.g. 'job'). */
export function validateBody(schemaName: string, body: unknown, root: string): void {
  checkObject(schemaName, body, root);
}
