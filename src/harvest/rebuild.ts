// The harvested pages → a catalogue file (still to be validated). Each record kind comes
// from where the API shows it: authors from author blocks, categories and sites from
// listed features, the number, tags and search text from the features nested in images,
// documents and media. Everything harvested is published: the API shows nothing else.
import { DOCUMENT_KEYS as D, FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { MediaBases } from './media-path.js';
import { downloadUrl, mediaPathOf } from './media-path.js';
import { Registry } from './registry.js';
import type { WireAuthor, WireCategory, WireDocument, WireImage, WireListedFeature, WireMedia, WireNestedFeature, WireRecords } from './wire.js';

export type HarvestedRecords = { [C in keyof WireRecords]: WireRecords[C][] };

export interface Rebuilt {
  /** A catalogue file, still to be validated. */
  file: Record<string, unknown>;
  /** Media-root path → the URL to download the file from. */
  files: Map<string, string>;
  /** Copies of one record that disagree: the source changed between two requests. */
  disagreements: string[];
}

/** What only the nested forms tell of a feature. */
interface NestedFacts {
  id: number;
  number: string;
}

interface SearchFacts {
  id: number;
  tags: unknown;
  searchText: unknown;
}

/** A feature record made from its listed form, completed from its nested forms. */
type ListedRecord = Record<string, unknown> & { id: number };

class Rebuild {
  readonly disagreements: string[] = [];
  readonly files = new Map<string, string>();
  readonly authors = new Registry<WireAuthor>('author', this.disagreements);
  readonly categories = new Registry<WireCategory>('category', this.disagreements);
  readonly sites = new Registry<{ id: number; name: string }>('site', this.disagreements);
  readonly nested = new Registry<NestedFacts>('nested feature', this.disagreements);
  readonly searchable = new Registry<SearchFacts>('nested feature', this.disagreements);

  constructor(private readonly bases: MediaBases) {}

  author(a: WireAuthor, where: string): number {
    this.authors.add({ id: a.id, username: a.username }, where);
    return a.id;
  }

  mediaPath(url: unknown): unknown {
    return typeof url === 'string' ? this.mediaFile(url) : url;
  }

  mediaFile(url: string): string {
    const path = mediaPathOf(url, this.bases);
    this.files.set(path, downloadUrl(url, this.bases));
    return path;
  }

  /** The nested copy of a feature: the number from every form, tags and search text from images and documents. */
  nestedFeature(f: WireNestedFeature, where: string): number {
    this.nested.add({ id: f.id, number: f.properties[F.number] }, where);
    if ('tags' in f || F.searchText in f.properties) this.searchable.add({ id: f.id, tags: f.tags, searchText: f.properties[F.searchText] }, where);
    return f.id;
  }

  listedFeature(f: WireListedFeature): ListedRecord {
    const p = f.properties;
    const where = `feature ${f.id}`;
    for (const c of p.categories) this.categories.add({ id: c.id, name: c.name, description: c.description, thumbnail: this.mediaFile(c.thumbnail) }, where);
    if (p.site !== null) this.sites.add({ id: p.site.id, name: p.site.name }, where);
    for (const s of [...p.documents, ...p.images, ...p.media]) if (s.author !== undefined) this.author(s.author, where);
    return {
      id: f.id, [F.type]: p[F.type], [F.number]: null, [F.name]: p[F.name], [F.street]: p[F.street], [F.postalCode]: p[F.postalCode],
      [F.address]: p[F.address], [F.year]: p[F.year], site: p.site === null ? null : p.site.id, categories: p.categories.map((c) => c.id),
      tags: [], geometry: f.geometry,
    };
  }

  image(r: WireImage): Record<string, unknown> {
    const where = `image ${r.id}`;
    return {
      id: r.id, feature: this.nestedFeature(r.feature, where), author: this.author(r.author, where), title: r.title,
      file: this.mediaPath(r.file), description: r.description, copyright: r.copyright, created: r.created, published: true,
    };
  }

  document(r: WireDocument): Record<string, unknown> {
    const where = `document ${r.id}`;
    return {
      id: r.id, feature: this.nestedFeature(r.feature, where), author: this.author(r.author, where), title: r.title,
      body: r.body, created: r.created, [D.lastEdited]: r[D.lastEdited], published: true,
    };
  }

  media(r: WireMedia): Record<string, unknown> {
    const where = `media ${r.id}`;
    return { id: r.id, feature: this.nestedFeature(r.feature, where), author: this.author(r.author, where), title: r.title, url: r.url, published: true };
  }

  /**
   * What the nested forms add to a listed feature. The nested form writes a missing
   * number as "", so "" comes back as null (the API shows both the same). A feature
   * never nested keeps its number null, tags [] and no search text (the format's default).
   */
  complete(feature: ListedRecord): Record<string, unknown> {
    const id = feature.id;
    const nested = this.nested.get(id);
    const search = this.searchable.get(id);
    if (nested !== undefined && nested.number !== '') feature[F.number] = nested.number;
    if (search !== undefined) Object.assign(feature, { tags: search.tags, [F.searchText]: search.searchText });
    return feature;
  }
}

export function rebuildCatalogue(records: HarvestedRecords, bases: MediaBases): Rebuilt {
  const r = new Rebuild(bases);
  const features = records.features.map((f) => r.listedFeature(f));
  const images = records.images.map((i) => r.image(i));
  const documents = records.documents.map((d) => r.document(d));
  const media = records.media.map((m) => r.media(m));
  const file = {
    format: 'heritage-catalogue/1',
    authors: r.authors.sorted(),
    categories: r.categories.sorted(),
    sites: r.sites.sorted(),
    features: features.map((f) => r.complete(f)),
    images,
    documents,
    media,
  };
  return { file, files: r.files, disagreements: r.disagreements };
}
