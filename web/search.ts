// The search form: q and the finding-things filters (category, year range, tags) → a list
// of matching features (a page at a time), and the search handed to the map, which outlines
// the matches in its view (matches.ts); choosing an entry flies there and opens it. Its fields live in
// the URL's fragment too (hash.ts), so a shared link reproduces the search.
import { ApiProblem, apiUrl, getJson, isAbort } from './api.js';
import { NO_SEARCH, type SearchFields } from './hash.js';
import type { StatusLine } from './status.js';
import type { Outlined } from './matches.js';
import type { FeaturePage, LegendCategory, ListedFeature } from './types.js';
import { describeReasons, matchReasons } from './why.js';

const PAGE_SIZE = 100;

export interface SearchDeps {
  base: string;
  status: StatusLine;
  /** A new search's API parameters and first page (null: no search), for the map; `fit`: show the page's matches. */
  onSearch(query: Record<string, string | undefined> | null, page: FeaturePage | null, fit: boolean): void;
  onChoose(feature: ListedFeature, button: HTMLElement): void;
  /** The fields changed by the reader (submit, reset, a legend entry). */
  onFieldsChanged(): void;
}

export class Search {
  private readonly form = byId<HTMLFormElement>('search');
  private readonly section = byId<HTMLElement>('results');
  private readonly heading = byId<HTMLElement>('results-heading');
  private readonly list = byId<HTMLOListElement>('results-list');
  private readonly more = byId<HTMLButtonElement>('results-more');
  private readonly category = byId<HTMLSelectElement>('category');
  private controller: AbortController | null = null;
  private next: string | null = null;
  private shown = 0;
  private count = 0;
  private outlined: Outlined = null;
  /** The fields of the search shown (or being loaded). */
  private current: SearchFields = NO_SEARCH;

  constructor(private readonly deps: SearchDeps) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run(true);
      deps.onFieldsChanged();
    });
    this.form.addEventListener('reset', () => setTimeout(() => {
      void this.run(true);
      deps.onFieldsChanged();
    }, 0));
    this.more.addEventListener('click', () => void this.loadPage(this.next!, false));
  }

  setCategories(categories: readonly LegendCategory[]): void {
    const options = categories.map((c) => new Option(`${c.name} (${c.features})`, String(c.id)));
    this.category.replaceChildren(new Option('Any category', ''), ...options);
  }

  searchCategory(id: number): void {
    this.category.value = String(id);
    byId<HTMLDetailsElement>('filters').open = true;
    void this.run(true);
    this.deps.onFieldsChanged();
  }

  /** The search shown, as the URL's fragment keeps it. */
  fields(): SearchFields {
    return this.current;
  }

  /** Fills the form from a shared link (or back/forward) and runs it, unless it is already shown. */
  async show(fields: SearchFields, fit: boolean): Promise<void> {
    const form = this.form.elements;
    for (const [name, value] of Object.entries(fields)) (form.namedItem(name) as HTMLInputElement | HTMLSelectElement).value = value;
    if (fields.categories !== '' && this.category.value !== fields.categories) this.category.append(new Option(`Category ${fields.categories}`, fields.categories, true, true));
    if (fields.categories !== '' || fields.year_from !== '' || fields.year_to !== '' || fields.tags !== '') byId<HTMLDetailsElement>('filters').open = true;
    await this.run(fit);
  }

  async run(fit: boolean): Promise<void> {
    this.current = this.formFields();
    const query = apiQuery(this.current);
    if (Object.values(query).every((v) => v === undefined || v === '')) {
      this.controller?.abort();
      this.section.hidden = true;
      this.deps.status.clear('search');
      this.deps.onSearch(null, null, false);
      return;
    }
    await this.load(query, fit);
  }

  private formFields(): SearchFields {
    const data = new FormData(this.form);
    const text = (name: keyof SearchFields) => String(data.get(name) ?? '').trim();
    return { q: text('q'), categories: text('categories'), year_from: text('year_from'), year_to: text('year_to'), tags: text('tags') };
  }

  /** The first page, then the search handed to the map (which outlines the matches in its view). */
  private async load(query: Record<string, string | undefined>, fit: boolean): Promise<void> {
    const signal = this.begin();
    const onSlow = () => this.deps.status.info('search', 'Searching… the server is slow to answer.');
    try {
      const page = await getJson<FeaturePage>(apiUrl(this.deps.base, 'features/', { ...query, page_size: PAGE_SIZE }), { signal, onSlow });
      this.deps.status.clear('search');
      this.outlined = null;
      this.showPage(page, true);
      this.deps.onSearch(query, page, fit);
    } catch (error) {
      this.failed(error, () => void this.load(query, fit));
    }
  }

  private async loadPage(url: string, fresh: boolean): Promise<void> {
    const signal = this.begin();
    try {
      const page = await getJson<FeaturePage>(url, { signal, onSlow: () => this.deps.status.info('search', 'Searching… the server is slow to answer.') });
      this.deps.status.clear('search');
      this.showPage(page, fresh);
    } catch (error) {
      this.failed(error, () => void this.loadPage(url, fresh));
    }
  }

  private begin(): AbortSignal {
    this.controller?.abort();
    this.controller = new AbortController();
    this.deps.status.info('search', 'Searching…');
    return this.controller.signal;
  }

  private failed(error: unknown, retry: () => void): void {
    if (isAbort(error)) return;
    const reason = error instanceof ApiProblem ? error.message : 'something went wrong';
    this.deps.status.error('search', `The search failed: ${reason}.`, { label: 'Try again', run: retry });
  }

  private showPage(page: FeaturePage, fresh: boolean): void {
    const features = page.results.features;
    this.shown = (fresh ? 0 : this.shown) + features.length;
    this.count = page.count;
    this.next = page.next;
    if (fresh) this.list.replaceChildren();
    this.list.append(...features.map((f) => this.entry(f)));
    this.heading.textContent = this.count === 0 ? 'No feature matches this search.' : this.summary();
    this.more.hidden = page.next === null;
    this.section.hidden = false;
  }

  /** How many matches the map outlines in its view, once it knows. */
  setOutlined(outlined: Outlined): void {
    this.outlined = outlined;
    if (!this.section.hidden && this.count > 0) this.heading.textContent = this.summary();
  }

  private summary(): string {
    const n = (k: number) => k.toLocaleString('en-GB');
    const listed = this.shown < this.count ? `, ${n(this.shown)} listed` : '';
    const outlined = this.outlined === null ? '' : this.outlined === 'wide' ? '; zoom in to outline them on the map' : `; ${n(this.outlined)} in this view outlined on the map`;
    return `${n(this.count)} ${this.count === 1 ? 'match' : 'matches'}${listed}${outlined}`;
  }

  private entry(feature: ListedFeature): HTMLLIElement {
    const p = feature.properties;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'result';
    button.dataset.feature = String(feature.id);
    const title = line('result-title', p.b_name || p.address);
    const detail = line('result-detail', [p.b_name ? p.address : null, p.current].filter((v) => v !== null).join(' · '));
    const categories = line('result-categories', p.categories.map((c) => c.name).join(' · '));
    button.append(title, detail);
    if (p.categories.length > 0) button.append(categories);
    if (this.current.q !== '') button.append(line('result-why', `Matched: ${describeReasons(matchReasons(feature, this.current.q))}`));
    button.addEventListener('click', () => this.deps.onChoose(feature, button));
    const li = document.createElement('li');
    li.append(button);
    return li;
  }
}

/** The API's parameters for the fields: a year range from one or both ends. */
export function apiQuery(fields: SearchFields): Record<string, string | undefined> {
  const { year_from: from, year_to: to } = fields;
  const years = from === '' && to === '' ? undefined : to === '' ? from : `${from === '' ? '-9999' : from},${to}`;
  return { q: fields.q, categories: fields.categories, year_range: years, tags: fields.tags };
}

function line(className: string, text: string): HTMLElement {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  return span;
}

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
}
