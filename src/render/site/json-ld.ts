// The record pages' structured data (schema.org, as JSON-LD): a building or a place with its
// address in parts, a picture, a piece of writing or a video, each with its licence, and the
// page's breadcrumbs as a BreadcrumbList.
import { FEATURE_KEYS as F } from '../../catalogue/fields.js';
import type { Site } from '../../pages/site.js';
import type { NestedFeatureRow } from '../../store/store.js';
import type { Crumb } from '../../pages/shell.js';

/** Buildings are historic buildings; areas, places and open spaces are places. */
const FEATURE_TYPES: Readonly<Record<string, string>> = {
  WHITECHAPEL_BUILDING: 'LandmarksOrHistoricalBuildings',
  GREATER_WHITECHAPEL: 'Place',
  PLACE: 'Place',
  OPEN_SPACE: 'Place',
};

export function schemaTypeOf(featureType: string): string {
  return FEATURE_TYPES[featureType] ?? 'Place';
}

type Address = Pick<NestedFeatureRow, typeof F.number | typeof F.street | typeof F.address> & { [F.postalCode]?: string };

/** The street address alone (number and street) when the record has them, else its whole address. */
export function streetAddressOf(f: Address): string {
  const street = f[F.street];
  if (street) return f[F.number] ? `${f[F.number]} ${street}` : street;
  return f.address;
}

export function postalAddress(f: Address, site: Site): Record<string, string> {
  return {
    '@type': 'PostalAddress',
    streetAddress: streetAddressOf(f),
    ...(site.locality ? { addressLocality: site.locality } : {}),
    ...(f[F.postalCode] ? { postalCode: f[F.postalCode] } : {}),
    ...(site.country ? { addressCountry: site.country } : {}),
  };
}

export function breadcrumbList(crumbs: readonly Crumb[], self: { href: string; label: string }): Record<string, unknown> {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: [...crumbs, self].map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.label, item: c.href })),
  };
}

export function licenceOf(site: Site): string | undefined {
  return site.licence.url ?? undefined;
}

/** One page's things in one graph: its subject, then its breadcrumbs. */
export function graph(...things: Record<string, unknown>[]): Record<string, unknown> {
  return { '@context': 'https://schema.org', '@graph': things };
}
