// Which renderer serves which collection, for lists and detail records alike.
import type { Collection } from '../constants.js';
import type { RowsByCollection } from '../store/store.js';
import { renderFeatureCollection, renderListedFeature } from './features.js';
import { renderDocument, renderImage, renderMedia } from './records.js';

interface CollectionRenderer<Row> {
  /** The `results` of a page. */
  results(rows: Row[], baseUrl: string): unknown;
  /** One record, in the same form as in its list. */
  record(row: Row, baseUrl: string): unknown;
}

type Renderers = { [C in Collection]: CollectionRenderer<RowsByCollection[C]> };

export const RENDERERS: Renderers = {
  features: {
    results: (rows, baseUrl) => renderFeatureCollection(rows, baseUrl),
    record: (row, baseUrl) => renderListedFeature(row, baseUrl),
  },
  images: {
    results: (rows, baseUrl) => rows.map((r) => renderImage(r, baseUrl)),
    record: (row, baseUrl) => renderImage(row, baseUrl),
  },
  documents: {
    results: (rows) => rows.map((r) => renderDocument(r)),
    record: (row) => renderDocument(row),
  },
  media: {
    results: (rows) => rows.map((r) => renderMedia(r)),
    record: (row) => renderMedia(row),
  },
};
