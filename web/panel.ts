// The side panel of one feature: address, name, categories, year, site, its images (a click
// opens the full picture), its documents (sanitised, with linked footnotes) and media links.
import { ApiProblem, apiUrl, getJson, isAbort } from './api.js';
import { renderDocumentBody } from './document-html.js';
import { SITE_PATHS } from '../src/site/paths.js';
import { byId } from './search.js';
import type { DocumentRecord, Envelope, ImageRecord, ListedFeature, MediaRecord } from './types.js';

export interface PanelDeps {
  base: string;
  /** The panel was closed by the reader (button or Esc). */
  onClose(): void;
}

export class Panel {
  readonly element = byId<HTMLElement>('panel');
  private readonly body = byId<HTMLElement>('panel-body');
  private readonly lightbox = byId<HTMLDialogElement>('lightbox');
  private controller: AbortController | null = null;
  /** Where focus goes back to when the panel closes. */
  private opener: HTMLElement | null = null;
  featureId: number | null = null;

  constructor(private readonly deps: PanelDeps) {
    byId('panel-close').addEventListener('click', () => deps.onClose());
    this.lightbox.addEventListener('click', (event) => {
      if (event.target === this.lightbox) this.lightbox.close();
    });
    // Footnote links move within the panel; the URL's fragment belongs to the map.
    this.body.addEventListener('click', (event) => {
      const link = (event.target as Element).closest('a.footnote-ref, a.footnote-back');
      if (!link) return;
      event.preventDefault();
      const target = document.getElementById(link.getAttribute('href')!.slice(1));
      target?.scrollIntoView({ block: 'center' });
      target?.focus();
    });
  }

  /** Shows the feature; resolves to it once loaded (null when it could not be, or another was opened meanwhile). */
  async open(id: number, opener: HTMLElement | null): Promise<ListedFeature | null> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.featureId = id;
    if (opener) this.opener = opener;
    this.element.hidden = false;
    this.body.replaceChildren(paragraph('Loading…', 'panel-loading'));
    const signal = controller.signal;
    const slow = () => this.body.replaceChildren(paragraph('Loading… the server is slow to answer.', 'panel-loading'));
    try {
      const feature = await getJson<ListedFeature>(apiUrl(this.deps.base, `features/${id}/`), { signal, onSlow: slow });
      const p = feature.properties;
      const list = <R>(path: string, wanted: boolean) => wanted
        ? getJson<Envelope<R[]>>(apiUrl(this.deps.base, `${path}/`, { feature: id, page_size: 100 }), { signal }).then((e) => e.results)
        : Promise.resolve([] as R[]);
      const [images, documents, media] = await Promise.all([
        list<ImageRecord>('images', p.images.length > 0),
        list<DocumentRecord>('documents', p.documents.length > 0),
        list<MediaRecord>('media', p.media.length > 0),
      ]);
      this.body.replaceChildren(...this.render(feature, images, documents, media));
      byId('panel-title').focus();
      return feature;
    } catch (error) {
      if (isAbort(error)) return null;
      const text = error instanceof ApiProblem && error.status === 404
        ? `Feature ${id} is not in the catalogue.`
        : `This feature could not be loaded: ${error instanceof ApiProblem ? error.message : 'something went wrong'}.`;
      const retry = document.createElement('button');
      retry.type = 'button';
      retry.textContent = 'Try again';
      retry.addEventListener('click', () => void this.open(id, null));
      this.body.replaceChildren(heading(`Feature ${id}`), paragraph(text, 'status-error'), retry);
      byId('panel-title').focus();
      return null;
    }
  }

  close(): void {
    this.controller?.abort();
    this.featureId = null;
    if (this.lightbox.open) this.lightbox.close();
    const hadFocus = this.element.contains(document.activeElement);
    this.element.hidden = true;
    this.body.replaceChildren();
    if (hadFocus) (this.opener?.isConnected ? this.opener : document.querySelector<HTMLElement>('.maplibregl-canvas'))?.focus();
    this.opener = null;
  }

  private render(feature: ListedFeature, images: ImageRecord[], documents: DocumentRecord[], media: MediaRecord[]): Node[] {
    const p = feature.properties;
    const nodes: Node[] = [heading(p.b_name || p.address)];
    const facts = document.createElement('dl');
    facts.className = 'facts';
    fact(facts, 'Address', p.address);
    if (p.b_name) fact(facts, 'Name', p.b_name);
    if (p.categories.length > 0) fact(facts, p.categories.length === 1 ? 'Category' : 'Categories', p.categories.map((c) => c.name).join(', '));
    if (p.current !== null) fact(facts, 'Year', String(p.current));
    if (p.site) fact(facts, 'Site', p.site.name);
    nodes.push(facts);
    // The record's own page (its canonical URL, readable without this map).
    const record = document.createElement('a');
    record.className = 'record-link';
    record.href = `${this.deps.base}${SITE_PATHS.record('features', feature.id)}`;
    record.textContent = 'Record page';
    nodes.push(paragraph('', 'record'));
    nodes[nodes.length - 1]!.appendChild(record);
    if (images.length > 0) nodes.push(section('Images', this.gallery(images)));
    for (const doc of documents) nodes.push(documentSection(doc));
    if (media.length > 0) nodes.push(section('Media', mediaList(media)));
    if (images.length + documents.length + media.length === 0) nodes.push(paragraph('Nothing is attached to this feature yet.', 'muted'));
    return nodes;
  }

  private gallery(images: ImageRecord[]): HTMLElement {
    const list = document.createElement('ul');
    list.className = 'gallery';
    for (const image of images) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'thumb';
      button.setAttribute('aria-label', `Open the picture: ${image.title}`);
      const img = document.createElement('img');
      // The button is named by its label and the title is written beside it: said once, not three times.
      img.alt = '';
      img.loading = 'lazy';
      img.addEventListener('error', () => button.classList.add('missing'));
      img.src = image.file;
      const caption = document.createElement('span');
      caption.textContent = image.title;
      button.append(img, caption);
      button.addEventListener('click', () => this.showImage(image));
      const li = document.createElement('li');
      li.append(button);
      list.append(li);
    }
    return list;
  }

  private showImage(image: ImageRecord): void {
    const img = byId<HTMLImageElement>('lightbox-img');
    img.src = image.file;
    img.alt = image.title;
    const credit = [image.author.username, image.created, image.copyright ? '© all rights reserved' : null].filter(Boolean).join(' · ');
    byId('lightbox-caption').textContent = [image.title, image.description, credit].filter(Boolean).join(' — ');
    this.lightbox.showModal();
  }
}

function documentSection(doc: DocumentRecord): HTMLElement {
  const article = document.createElement('article');
  article.className = 'document';
  const h = document.createElement('h3');
  h.textContent = doc.title;
  const meta = paragraph(`${doc.author.username} · ${doc.last_edited}`, 'muted');
  const body = document.createElement('div');
  body.className = 'document-body';
  body.append(renderDocumentBody(doc.body, `doc${doc.id}`));
  article.append(h, meta, body);
  return article;
}

function mediaList(media: MediaRecord[]): HTMLElement {
  const list = document.createElement('ul');
  for (const m of media) {
    const a = document.createElement('a');
    a.href = m.url;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    a.textContent = m.title;
    const li = document.createElement('li');
    li.append(a);
    list.append(li);
  }
  return list;
}

function heading(text: string): HTMLElement {
  const h = document.createElement('h2');
  h.id = 'panel-title';
  h.tabIndex = -1;
  h.textContent = text;
  return h;
}

function section(title: string, content: HTMLElement): HTMLElement {
  const s = document.createElement('section');
  const h = document.createElement('h3');
  h.textContent = title;
  s.append(h, content);
  return s;
}

function fact(list: HTMLDListElement, term: string, value: string): void {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.textContent = value;
  list.append(dt, dd);
}

function paragraph(text: string, className: string): HTMLElement {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}
