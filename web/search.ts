// The search form: q and the finding-things filters (category, year range, tags) → a list of
// matching features, outlined on the map; choosing an entry flies there and opens it.
import { ApiProblem, apiUrl, getJson, isAbort } from './api.js';
import type { StatusLine } from './status.js';
import type { FeaturePage, LegendCategory, ListedFeature } from './types.js';

const PAGE_SIZE = 100;

export interface SearchDeps {
  base: string;
  status: StatusLine;
  /** The matches loaded so far (null: no search), for the map. */
  onMatches(features: ListedFeature[] | null, fit: boolean): void;
  onChoose(feature: ListedFeature, button: HTMLElement): void;
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
  private matches: ListedFeature[] = [];

  constructor(private readonly deps: SearchDeps) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run();
    });
    this.form.addEventListener('reset', () => setTimeout(() => void this.run(), 0));
    this.more.addEventListener('click', () => void this.load(this.next!, false));
  }

  setCategories(categories: readonly LegendCategory[]): void {
    const options = categories.map((c) => new Option(`${c.name} (${c.features})`, String(c.id)));
    this.category.replaceChildren(new Option('Any category', ''), ...options);
  }

  searchCategory(id: number): void {
    this.category.value = String(id);
    byId<HTMLDetailsElement>('filters').open = true;
    void this.run();
  }

  async run(): Promise<void> {
    const query = this.query();
    if (Object.values(query).every((v) => v === undefined || v === '')) {
      this.controller?.abort();
      this.section.hidden = true;
      this.deps.status.clear('search');
      this.deps.onMatches(null, false);
      return;
    }
    await this.load(apiUrl(this.deps.base, 'features/', { ...query, page_size: PAGE_SIZE }), true);
  }

  private query(): Record<string, string | undefined> {
    const data = new FormData(this.form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const [from, to] = [text('year_from'), text('year_to')];
    const years = from === '' && to === '' ? undefined : to === '' ? from : `${from === '' ? '-9999' : from},${to}`;
    return { q: text('q'), categories: text('categories'), year_range: years, tags: text('tags') };
  }

  private async load(url: string, fresh: boolean): Promise<void> {
    this.controller?.abort();
    const controller = (this.controller = new AbortController());
    this.deps.status.info('search', 'Searching…');
    try {
      const page = await getJson<FeaturePage>(url, {
        signal: controller.signal,
        onSlow: () => this.deps.status.info('search', 'Searching… the server is slow to answer.'),
      });
      this.deps.status.clear('search');
      this.show(page, fresh);
    } catch (error) {
      if (isAbort(error)) return;
      const reason = error instanceof ApiProblem ? error.message : 'something went wrong';
      this.deps.status.error('search', `The search failed: ${reason}.`, { label: 'Try again', run: () => void this.load(url, fresh) });
    }
  }

  private show(page: FeaturePage, fresh: boolean): void {
    const features = page.results.features;
    this.matches = fresh ? features : [...this.matches, ...features];
    this.next = page.next;
    if (fresh) this.list.replaceChildren();
    this.list.append(...features.map((f) => this.entry(f)));
    const shown = this.matches.length;
    this.heading.textContent = page.count === 0
      ? 'No feature matches this search.'
      : `${page.count.toLocaleString('en-GB')} ${page.count === 1 ? 'match' : 'matches'}${shown < page.count ? `, ${shown} shown` : ''}`;
    this.more.hidden = page.next === null;
    this.section.hidden = false;
    this.deps.onMatches(this.matches, fresh);
  }

  private entry(feature: ListedFeature): HTMLLIElement {
    const p = feature.properties;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'result';
    button.dataset.feature = String(feature.id);
    const title = document.createElement('span');
    title.className = 'result-title';
    title.textContent = p.b_name || p.address;
    const detail = document.createElement('span');
    detail.className = 'result-detail';
    detail.textContent = [p.b_name ? p.address : null, p.categories[0]?.name, p.current].filter((v) => v !== null && v !== undefined).join(' · ');
    button.append(title, detail);
    button.addEventListener('click', () => this.deps.onChoose(feature, button));
    const li = document.createElement('li');
    li.append(button);
    return li;
  }
}

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element as T;
}
