// The legend: each category's colour, thumbnail, name and number of features; choosing one
// searches for its features.
import { NO_CATEGORY_COLOUR } from './colours.js';
import type { LegendCategory } from './types.js';

export function renderLegend(list: HTMLElement, categories: readonly LegendCategory[], colours: Map<number, string>, choose: (id: number) => void): void {
  const items = categories.map((c) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'legend-entry';
    button.title = c.description || c.name;
    button.append(swatch(colours.get(c.id) ?? NO_CATEGORY_COLOUR), thumbnail(c.thumbnail), label(c.name, c.features));
    button.addEventListener('click', () => choose(c.id));
    const li = document.createElement('li');
    li.append(button);
    return li;
  });
  const none = document.createElement('li');
  none.className = 'legend-none';
  none.append(swatch(NO_CATEGORY_COLOUR), label('No category', null));
  list.replaceChildren(...items, none);
}

function swatch(colour: string): HTMLElement {
  const span = document.createElement('span');
  span.className = 'swatch';
  span.style.background = colour;
  span.setAttribute('aria-hidden', 'true');
  return span;
}

function thumbnail(url: string): HTMLElement {
  const img = document.createElement('img');
  img.className = 'legend-thumb';
  img.alt = '';
  img.loading = 'lazy';
  img.addEventListener('error', () => img.classList.add('missing'));
  img.src = url;
  return img;
}

function label(name: string, count: number | null): HTMLElement {
  const span = document.createElement('span');
  span.className = 'legend-label';
  span.textContent = name;
  if (count !== null) {
    const small = document.createElement('small');
    small.textContent = ` ${count.toLocaleString('en-GB')}`;
    span.append(small);
  }
  return span;
}
