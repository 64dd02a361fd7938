// The text each record is found by with `q` (issue: finding things). Features: their own
// fields, tags, category names and their published attachments' titles and text.
// Records: title, description or body (HTML stripped), their feature's address and name.
import type { Catalogue, Feature } from '../catalogue/format.js';
import { htmlText, searchText } from '../search/text.js';
import type { SearchRow } from './tables.js';

type Attachment = { id: number; feature: number; title: string; published: boolean };

function published<R extends Attachment>(records: readonly R[]): R[] {
  return records.filter((r) => r.published);
}

export function searchTables(catalogue: Catalogue): {
  features_search: SearchRow[];
  images_search: SearchRow[];
  documents_search: SearchRow[];
  media_search: SearchRow[];
} {
  const features = new Map(catalogue.features.map((f) => [f.id, f]));
  const images = published(catalogue.images).map((r) => ({ r, text: [r.title, r.description] }));
  const documents = published(catalogue.documents).map((r) => ({ r, text: [r.title, htmlText(r.body)] }));
  const media = published(catalogue.media).map((r) => ({ r, text: [r.title] }));
  const attachedText = new Map<number, string[]>();
  for (const { r, text } of [...images, ...documents, ...media]) {
    const list = attachedText.get(r.feature) ?? [];
    list.push(...text);
    attachedText.set(r.feature, list);
  }
  const categoryNames = new Map(catalogue.categories.map((c) => [c.id, c.name]));
  const recordRows = (list: { r: Attachment; text: string[] }[]) =>
    list.map(({ r, text }) => ({ id: r.id, text: searchText([...text, ...featureNames(features.get(r.feature))]) }));
  return {
    features_search: catalogue.features.map((f) => ({
      id: f.id,
      text: searchText([
        f.b_number, f.b_name, f.street, f.address, f.postcode, f.search_str, ...f.tags,
        ...f.categories.map((c) => categoryNames.get(c)), ...(attachedText.get(f.id) ?? []),
      ]),
    })),
    images_search: recordRows(images),
    documents_search: recordRows(documents),
    media_search: recordRows(media),
  };
}

function featureNames(feature: Feature | undefined): (string | null)[] {
  return feature ? [feature.address, feature.b_name] : [];
}
