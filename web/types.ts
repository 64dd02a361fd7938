// The API's wire shapes the page reads: render/schemas.ts's, imported as types only (the
// bundler erases them, so no TypeBox code reaches the page); and /map/config.json.
import type { Static } from '@sinclair/typebox';
import type {
  CategorySchema, DocumentSchema, FeatureListSchema, GeometrySchema, ImageSchema, ListedFeatureSchema,
  MediaListSchema, MediaSchema,
} from '../src/render/schemas.js';

export type Category = Static<typeof CategorySchema>;
export type Geometry = Static<typeof GeometrySchema>;
export type ListedFeature = Static<typeof ListedFeatureSchema>;
export type FeaturePage = Static<typeof FeatureListSchema>;
export type ImageRecord = Static<typeof ImageSchema>;
export type DocumentRecord = Static<typeof DocumentSchema>;
export type MediaRecord = Static<typeof MediaSchema>;

/** A list answer of any collection: count, links and its results. */
export type Envelope<R> = Omit<Static<typeof MediaListSchema>, 'results'> & { results: R };

/** A category of the legend: how many features it has, its colour on the map. */
export interface LegendCategory extends Category {
  features: number;
  colour: string;
}

/** /map/matches.json: the features a search matches in the view (none when it is `wide`). */
export interface MatchIds {
  wide: boolean;
  count: number;
  ids: number[];
}

/** /map/streets.json and /map/labels.json (src/render/map-labels.ts). */
export interface StreetLabels {
  streets: { name: string; lon: number; lat: number; angle: number }[];
}
export interface BuildingLabels {
  buildings: { id: number; text: string; lon: number; lat: number }[];
}

/** /map/config.json (render/map-config.ts). */
export interface MapConfig {
  extent: [number, number, number, number] | null;
  tiles: string;
  basemap: { kind: 'raster' | 'style'; url: string } | null;
  categories: LegendCategory[];
}
