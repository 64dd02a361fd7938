// Images, documents and media as the spec shows them.
import { DOCUMENT_KEYS as D } from '../catalogue/fields.js';
import type { DocumentRow, ImageRow, MediaRow } from '../store/store.js';
import { renderMediaFeature, renderSearchableFeature } from './features.js';
import { mediaUrl } from './media-url.js';

export function renderImage(r: ImageRow, baseUrl: string) {
  return {
    id: r.id,
    title: r.title,
    author: r.author,
    feature: renderSearchableFeature(r.feature),
    file: mediaUrl(baseUrl, r.file),
    description: r.description,
    copyright: r.copyright,
    created: r.created,
  };
}

export function renderDocument(r: DocumentRow) {
  return {
    id: r.id,
    title: r.title,
    author: r.author,
    feature: renderSearchableFeature(r.feature),
    body: r.body,
    created: r.created,
    [D.lastEdited]: r[D.lastEdited],
  };
}

export function renderMedia(r: MediaRow) {
  return { id: r.id, title: r.title, author: r.author, feature: renderMediaFeature(r.feature), url: r.url };
}
