// The OGC face's collections and their items' properties, declared once: flat and typed,
// so GDAL and QGIS make real columns of them. Queryables, the item schema, the items
// parameters, sorting, the OpenAPI 3.0 document and the renderer all read this table; the
// store reads the SQL of each stored property (store/ogc-sql.ts, checked against these names).
// The collections are the catalogue's (catalogue/collections.ts).
import type { CatalogueCollection } from '../catalogue/collections.js';
import { DOCUMENT_KEYS as D, FEATURE_KEYS as F } from '../catalogue/fields.js';

export type PropertyType = 'string' | 'integer' | 'boolean' | 'date';

export interface OgcProperty {
  readonly name: string;
  readonly type: PropertyType;
  readonly title: string;
  readonly nullable: boolean;
  /**
   * `stored`: read by the store (a column or an expression over the record); `made`: by the
   * renderer from stored values and the base URL (URLs, a document's text without markup).
   */
  readonly source: 'stored' | 'made';
  /** In filters, as `name=value` and in CQL2 (stored properties only). */
  readonly queryable: boolean;
  /** A `sortby` key (stored properties only). */
  readonly sortable: boolean;
  /**
   * Items joined by `LIST_SEPARATOR` (category names): `name=value` matches an item equal to
   * the value, where CQL2 compares the whole joined text as it does any string.
   */
  readonly list: boolean;
}


type Flag = 'q' | 's' | 'n' | 'l';

/** name, type, title, flags: q queryable, s sortable, n nullable, l a list. */
function declare(rows: readonly [string, PropertyType, string, string?][], made: readonly [string, string, boolean][] = []): readonly OgcProperty[] {
  const stored = rows.map(([name, type, title, flags = '']): OgcProperty => {
    const has = (flag: Flag) => flags.includes(flag);
    return { name, type, title, nullable: has('n'), source: 'stored', queryable: has('q'), sortable: has('s'), list: has('l') };
  });
  const byRenderer = made.map(([name, title, nullable]): OgcProperty => ({ name, type: 'string', title, nullable, source: 'made', queryable: false, sortable: false, list: false }));
  return [...stored, ...byRenderer];
}

const RECORD_ATTRIBUTION: readonly [string, PropertyType, string, string][] = [
  ['author', 'string', 'Author (user name)', 'qs'],
  ['author_id', 'integer', 'Author id', 'qs'],
  ['feature_id', 'integer', 'Id of the building or place it belongs to', 'qs'],
  ['address', 'string', "Its building's or place's address", 'qs'],
];
const API_URL: [string, string, boolean] = ['api_url', 'The same record in /api/v1/', false];
const PAGE_URL: [string, string, boolean] = ['page_url', 'Its page for people (HTML)', false];

export const OGC_PROPERTIES: Readonly<Record<CatalogueCollection, readonly OgcProperty[]>> = {
  features: declare(
    [
      ['id', 'integer', 'Catalogue id', 'qs'],
      [F.type, 'string', 'Kind: WHITECHAPEL_BUILDING, GREATER_WHITECHAPEL or PLACE', 'qs'],
      [F.number, 'string', 'Building number or range', 'qsn'],
      [F.name, 'string', 'Building name', 'qsn'],
      [F.street, 'string', 'Street', 'qsn'],
      [F.postalCode, 'string', 'Postcode or postal district', 'qs'],
      [F.address, 'string', 'Display address', 'qs'],
      [F.year, 'integer', 'Year (current)', 'qsn'],
      ['site_id', 'integer', 'Site id', 'qsn'],
      ['site_name', 'string', 'Site name', 'qsn'],
      ['categories', 'string', 'Category names, "; " between them', 'ql'],
      ['category_ids', 'string', 'Category ids, "; " between them', ''],
      ['tags', 'string', 'Tags, "; " between them', ''],
      ['image_count', 'integer', 'Published images', 'qs'],
      ['document_count', 'integer', 'Published documents', 'qs'],
      ['media_count', 'integer', 'Published media links', 'qs'],
    ],
    [['thumbnail', "The first image's file", true], API_URL, PAGE_URL],
  ),
  images: declare(
    [
      ['id', 'integer', 'Catalogue id', 'qs'],
      ['title', 'string', 'Title', 'qs'],
      ['description', 'string', 'Description (plain text)', 'q'],
      ['copyright', 'boolean', 'Under copyright', 'qs'],
      ['created', 'date', 'Date made', 'qsn'],
      ...RECORD_ATTRIBUTION,
    ],
    [['file_url', 'The picture file', false], API_URL, PAGE_URL],
  ),
  documents: declare(
    [
      ['id', 'integer', 'Catalogue id', 'qs'],
      ['title', 'string', 'Title', 'qs'],
      ['body_html', 'string', 'Text as HTML', ''],
      ['created', 'date', 'Date written', 'qs'],
      [D.lastEdited, 'date', 'Date last edited', 'qs'],
      ...RECORD_ATTRIBUTION,
    ],
    [['text', 'Text without its HTML markup', false], API_URL, PAGE_URL],
  ),
  media: declare(
    [
      ['id', 'integer', 'Catalogue id', 'qs'],
      ['title', 'string', 'Title', 'qs'],
      ['url', 'string', 'Address of the video page', 'qs'],
      ...RECORD_ATTRIBUTION,
    ],
    [API_URL, PAGE_URL],
  ),
};

/** What `datetime` filters on, per collection (media have no date: every media item matches any `datetime`). */
export const TEMPORAL_PROPERTY: Readonly<Record<CatalogueCollection, string | null>> = {
  features: 'current',
  images: 'created',
  documents: 'created',
  media: null,
};

export const COLLECTION_TITLES: Readonly<Record<CatalogueCollection, { title: string; description: string }>> = {
  features: { title: 'Buildings and places', description: 'Every mapped building, area and place: footprints with address, name, year, site and categories.' },
  images: { title: 'Images', description: "Published pictures, each placed at its building's footprint." },
  documents: { title: 'Documents', description: "Published articles, each placed at its building's footprint." },
  media: { title: 'Media', description: "Published video links, each placed at its building's footprint." },
};

export function propertiesOf(collection: CatalogueCollection): readonly OgcProperty[] {
  return OGC_PROPERTIES[collection];
}

export function propertyOf(collection: CatalogueCollection, name: string): OgcProperty | undefined {
  return OGC_PROPERTIES[collection].find((p) => p.name === name);
}
