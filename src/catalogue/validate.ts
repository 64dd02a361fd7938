// Validation of a catalogue file (catalogue-format.md, clarifications.md). One code path
// for every size: the file streams through the JSON reader into the record-by-record
// checker, whether it comes as a stream (import), as bytes or as a parsed value (tests,
// harvest). A file is refused with every problem it has, in file order, or accepted.
import { CatalogueChecker, type CheckResult } from './checker.js';
import { CATALOGUE_FORMAT, type Catalogue, type ValidationResult } from './format.js';
import { CatalogueJsonReader, FileProblem, type CatalogueEvents } from './json-reader.js';
import { DEFAULT_CATALOGUE_LIMITS, type CatalogueLimits } from './limits.js';
import { isListName, type CatalogueRecord, type CatalogueSink, type ListName } from './lists.js';
import { isPlainObject } from './paths.js';
import { parsedStringProblems } from './strings.js';
import { StructureCheck } from './structure.js';


/** Collects the normalised records into a `Catalogue` (small files, tests). */
class CatalogueCollector implements CatalogueSink {
  readonly catalogue: Catalogue = { format: CATALOGUE_FORMAT, authors: [], categories: [], sites: [], features: [], images: [], documents: [], media: [] };

  add<L extends ListName>(list: L, record: CatalogueRecord<L>): void {
    const records: CatalogueRecord<L>[] = this.catalogue[list];
    records.push(record);
  }
}

function toValidationResult(result: CheckResult, collector: CatalogueCollector): ValidationResult {
  if (result.ok) return { ok: true, catalogue: collector.catalogue };
  return { ok: false, problems: result.problems, total: result.total };
}

/** Bytes or chunks of a file through the reader; a whole-file problem replaces the rest. */
function readInto(checker: CatalogueChecker, limits: CatalogueLimits, feed: (reader: CatalogueJsonReader) => void): CheckResult {
  try {
    feed(new CatalogueJsonReader(checker, limits));
  } catch (error) {
    if (error instanceof FileProblem) return CatalogueChecker.refuseWhole(error.message);
    throw error;
  }
  return checker.finish();
}

export interface StreamOptions {
  /** Where records go as they pass (a store's writer); nothing is collected otherwise. */
  sink?: CatalogueSink;
  /** After each chunk: lets an asynchronous sink write what it holds (backpressure). */
  afterChunk?: (bytesRead: number) => Promise<void> | void;
  limits?: CatalogueLimits;
}

/**
 * The format's rules made ready once (the schemas compiled) for every file its owner
 * checks: a command makes one, a test file keeps one.
 */
export class CatalogueValidator {
  private readonly structure = new StructureCheck();

  constructor(private readonly limits: CatalogueLimits = DEFAULT_CATALOGUE_LIMITS) {}

  /** A catalogue file's bytes → its normalised catalogue, or every problem it has. */
  parseBytes(bytes: Uint8Array): ValidationResult {
    const collector = new CatalogueCollector();
    const result = readInto(new CatalogueChecker(this.structure, collector, this.limits), this.limits, (reader) => {
      reader.pushBytes(bytes);
      reader.end();
    });
    return toValidationResult(result, collector);
  }

  /** A parsed catalogue file → its normalised catalogue, or every problem it has. */
  validate(value: unknown): ValidationResult {
    const collector = new CatalogueCollector();
    const checker = new CatalogueChecker(this.structure, collector, this.limits);
    walkValue(value, checker, this.limits);
    return toValidationResult(checker.finish(), collector);
  }

  /** A file as a stream of chunks, checked as it arrives and never held whole. */
  async checkStream(chunks: AsyncIterable<Uint8Array>, options: Omit<StreamOptions, 'limits'> = {}): Promise<CheckResult> {
    const checker = new CatalogueChecker(this.structure, options.sink, this.limits);
    const reader = new CatalogueJsonReader(checker, this.limits);
    let bytesRead = 0;
    try {
      for await (const chunk of chunks) {
        reader.pushBytes(chunk);
        bytesRead += chunk.length;
        await options.afterChunk?.(bytesRead);
      }
      reader.end();
    } catch (error) {
      if (error instanceof FileProblem) return CatalogueChecker.refuseWhole(error.message);
      throw error;
    }
    return checker.finish();
  }
}

/** One file's bytes checked by a validator made for it. */
export function parseCatalogueBytes(bytes: Uint8Array, limits: CatalogueLimits = DEFAULT_CATALOGUE_LIMITS): ValidationResult {
  return new CatalogueValidator(limits).parseBytes(bytes);
}

/** One parsed file checked by a validator made for it. */
export function validateCatalogue(value: unknown, limits: CatalogueLimits = DEFAULT_CATALOGUE_LIMITS): ValidationResult {
  return new CatalogueValidator(limits).validate(value);
}

/** One streamed file checked by a validator made for it (import, validate). */
export async function checkCatalogueStream(chunks: AsyncIterable<Uint8Array>, options: StreamOptions = {}): Promise<CheckResult> {
  return new CatalogueValidator(options.limits).checkStream(chunks, options);
}

/** A parsed file handed to the checker exactly as the reader would hand it on (no record size: there is no text). */
function walkValue(value: unknown, events: CatalogueEvents, limits: CatalogueLimits): void {
  if (!isPlainObject(value)) return events.notAnObject(Array.isArray(value) ? [] : value);
  for (const [key, child] of Object.entries(value)) {
    if (!isListName(key) || !Array.isArray(child)) {
      events.rootValue(key, child, parsedStringProblems(child, limits));
      continue;
    }
    const list = key;
    events.listStart(list);
    child.forEach((record: unknown, index) => events.record(list, index, record, parsedStringProblems(record, limits)));
    events.listEnd(list);
  }
}
