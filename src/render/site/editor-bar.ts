// What an editor sees on a record's page and no one else does (issue 47): the record's form,
// its history, and for a building the forms of what may be attached to it. The public page
// is made and cached once for everyone; an editor's copy is that page with this bar set in
// after its heading, never cached (http/site/routes.ts), so that no one else's bytes change.
import type { CatalogueCollection } from '../../catalogue/collections.js';
import { escapeAttribute, escapeText } from '../../pages/sanitise.js';
import type { PageAt } from '../../pages/shell.js';
import { CONTRIBUTE_PATHS, EDIT_PATHS } from '../../site/paths.js';

const link = (href: string, label: string) => `<a href="${escapeAttribute(href)}">${escapeText(label)}</a>`;

export function editorBar(at: PageAt, collection: CatalogueCollection, id: number): string {
  const base = at.baseUrl;
  const links = [link(`${base}${EDIT_PATHS.record(collection, id)}`, 'Edit'), link(`${base}${CONTRIBUTE_PATHS.history(collection, id)}`, 'History')];
  if (collection === 'features') {
    links.push(
      link(`${base}${EDIT_PATHS.create('images')}?feature=${id}`, 'Add a picture record'),
      link(`${base}${EDIT_PATHS.create('documents')}?feature=${id}`, 'Add writing'),
      link(`${base}${EDIT_PATHS.create('media')}?feature=${id}`, 'Add a video link'),
    );
  }
  links.push(link(`${base}${EDIT_PATHS.recent}`, 'Recent changes'), link(`${base}${CONTRIBUTE_PATHS.queue}`, 'Waiting for review'));
  return `<nav class="editor-bar" aria-label="For editors">${links.join(' ')}</nav>\n`;
}

/** The page with the bar after its first heading (a page without one: unchanged). */
export function withEditorBar(html: string, bar: string): string {
  const heading = html.indexOf('</h1>');
  if (heading === -1) return html;
  const at = heading + '</h1>'.length;
  return `${html.slice(0, at)}\n${bar}${html.slice(at).replace(/^\n/, '')}`;
}
