// What the IIIF community's own tools say of a Presentation 3.0 document: the JSON Schema of
// the IIIF validator (test/fixtures/iiif/, draft-07, so Ajv's default class) and
// @iiif/parser, the IIIF Commons parser that viewers are built on (its authored-document
// validator, its normalizer and its traversal). Each returns its problems as sentences, so a
// failing test prints them all.
import fs from 'node:fs';
import path from 'node:path';
import { normalize, Traverse } from '@iiif/parser';
import { validateAuthoredPresentation3, type ValidationIssue } from '@iiif/parser/presentation-3/validator';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT } from './root.js';

const SCHEMA_FILE = path.join(ROOT, 'test', 'fixtures', 'iiif', 'iiif_3_0.json');
const SCHEMA_ID = 'http://iiif.io/api/presentation/3/schema.json';

interface Validators {
  /** The schema's root: one of a Manifest, Collection, AnnotationCollection, AnnotationPage or Annotation. */
  document: ValidateFunction;
  /** Its classes, whose errors say more than the root's oneOf when a document fails. */
  byType: Map<string, ValidateFunction>;
}

let compiled: Validators | undefined;

/** Compiled on first use (about 200 ms), once per process. */
function validators(): Validators {
  if (compiled) return compiled;
  // strict: false: the schema keeps its definitions under `types` and `classes`, which strict mode refuses as unknown keywords.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const document = ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')));
  const byType = new Map<string, ValidateFunction>();
  for (const [type, name] of [['Manifest', 'manifest'], ['Collection', 'collection']] as const) {
    const validate = ajv.getSchema(`${SCHEMA_ID}#/classes/${name}`);
    if (validate === undefined) throw new Error(`the schema has no class ${name}`);
    byType.set(type, validate);
  }
  compiled = { document, byType };
  return compiled;
}

const sentence = (e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`;

/** The schema's errors for a document: none when it is valid. */
export function schemaErrors(body: unknown): string[] {
  const { document, byType } = validators();
  // Read before validating: a failed type guard narrows `body` to never.
  const type = typeof body === 'object' && body !== null && 'type' in body ? String(body.type) : '';
  if (document(body)) return [];
  const specific = byType.get(type);
  const errors = specific !== undefined && !specific(body) ? specific.errors : document.errors;
  return (errors ?? []).map(sentence);
}

/**
 * Warnings the parser's validator gives for properties the specification recommends
 * (SHOULD) and this server leaves out on purpose: no picture stands for the whole catalogue
 * or a page of it (a collection's `thumbnail`), the collections say what they hold in their
 * labels and summaries (`metadata`), and the publisher has no logo. Any other warning, and
 * every error, is a problem.
 */
export const TOLERATED_WARNINGS: ReadonlySet<string> = new Set([
  'Collection should include "thumbnail"',
  'Collection should include "metadata"',
  'Agent should include "logo"',
]);

const issueText = (i: ValidationIssue) => `${i.severity} ${i.code} at ${i.path}: ${i.message}`;

/** @iiif/parser's validator: its errors and untolerated warnings (its report whole: its strict mode throws at the first error). */
export function parserIssues(body: unknown): string[] {
  const report = validateAuthoredPresentation3(body, { mode: 'tolerant' });
  const problems = report.issues.filter((i) => i.severity === 'error' || (i.severity === 'warning' && !TOLERATED_WARNINGS.has(i.message)));
  if (!report.valid && problems.length === 0) return [`invalid with no error: ${JSON.stringify(report.stats)}`];
  return problems.map(issueText);
}

export interface Parsed {
  /** The resource the normalizer found at the top. */
  resource: { id: string; type: string };
  /** The ids of each type in its normalized store (Manifest, Canvas, Annotation, ContentResource, …). */
  stored: (type: string) => string[];
  /** The canvases and manifests (references in a collection too) met by the traversal, in order. */
  canvases: string[];
  manifests: string[];
}

/** The document as a viewer built on @iiif/parser reads it: normalized, then walked (each on a copy: both change what they are given). */
export function parse(body: unknown): Parsed {
  const { entities, resource } = normalize(structuredClone(body));
  const canvases: string[] = [];
  const manifests: string[] = [];
  new Traverse({ canvas: [(c) => void canvases.push(c.id)], manifest: [(m) => void manifests.push(m.id)] }).traverseUnknown(structuredClone(body));
  const table: Record<string, object> = entities;
  return { resource, stored: (type) => Object.keys(table[type] ?? {}), canvases, manifests };
}
