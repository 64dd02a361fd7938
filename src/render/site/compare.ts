// A building's pictures side by side (/iiif/places/{id}/compare/): Mirador, served by this
// server (viewer-assets.ts), opening the building's IIIF manifest from this server with a
// window per picture. Without scripts (or without the viewers' build) the page lists the
// pictures, each a link to its own page, whose viewer zooms too.
import { CONTENT_TYPE_IIIF_PRESENTATION } from '../../constants.js';
import { IIIF_PATHS } from '../../pages/paths.js';
import { homeCrumb, page, searchCrumb, shortened, type PageAt } from '../../pages/shell.js';
import { SITE_PATHS } from '../../site/paths.js';
import { SITE_PAGES } from './templates.js';
import { viewerAssets } from './viewer-assets.js';

export interface ComparedPicture {
  id: number;
  title: string;
  author: string;
  created: string | null;
}

export function htmlCompare(at: PageAt, building: { id: number; label: string }, pictures: readonly ComparedPicture[]): string {
  const featureHref = `${at.baseUrl}${SITE_PATHS.record('features', building.id)}`;
  const manifest = { href: `${at.baseUrl}${IIIF_PATHS.placeManifest(building.id)}`, type: CONTENT_TYPE_IIIF_PRESENTATION, title: 'IIIF manifest' };
  const heading = `The pictures of ${building.label} side by side`;
  const count = `${pictures.length} picture${pictures.length === 1 ? '' : 's'}`;
  return SITE_PAGES.render('compare', {
    page: page(at, {
      title: heading,
      heading,
      description: shortened(`The ${count} of ${building.label} side by side, each to zoom into, in Mirador: ${pictures.map((p) => p.title).join(', ')}.`),
      canonical: `${at.baseUrl}${IIIF_PATHS.compare(building.id)}`,
      alternates: [manifest],
      crumbs: [homeCrumb(at), searchCrumb(at), { href: featureHref, label: building.label }],
      kind: 'viewer',
    }),
    manifest,
    // Canvases are named as the manifest names them (iiif/manifest.ts), under the same base URL.
    canvases: JSON.stringify(pictures.map((p) => `${at.baseUrl}${IIIF_PATHS.pictureCanvas(p.id)}`)),
    viewerLabel: `${count} of ${building.label}, each in a window`,
    pictures: pictures.map((p) => ({ title: p.title, href: `${at.baseUrl}${SITE_PATHS.record('images', p.id)}`, credit: `by ${p.author}${p.created ? `, ${p.created}` : ''}` })),
    featureHref,
    featureLabel: building.label,
    assets: viewerAssets(at.baseUrl),
  });
}
