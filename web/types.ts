// The API's wire shapes the page reads (see ../shared/api-spec.md) and /map/config.json.

export interface MapConfig {
  extent: [number, number, number, number] | null;
  tiles: string;
  basemap: { kind: 'raster' | 'style'; url: string } | null;
  categories: LegendCategory[];
}

export interface Category {
  id: number;
  name: string;
  description: string;
  thumbnail: string;
}

export interface LegendCategory extends Category {
  features: number;
}

export interface Author {
  id: number;
  username: string;
}

export interface Summary {
  id: number;
  title: string;
  author: Author;
}

export interface Geometry {
  type: 'MultiPolygon';
  coordinates: number[][][][];
}

export interface ListedFeature {
  id: number;
  type: 'Feature';
  geometry: Geometry;
  properties: {
    b_name: string | null;
    address: string;
    postcode: string;
    street: string | null;
    categories: Category[];
    count: number;
    current: number | null;
    site: { id: number; name: string } | null;
    feature_type: string;
    documents: Summary[];
    images: Summary[];
    media: Summary[];
  };
}

export interface Envelope<R> {
  count: number;
  next: string | null;
  previous: string | null;
  results: R;
}

export type FeaturePage = Envelope<{ type: 'FeatureCollection'; features: ListedFeature[] }>;

export interface ImageRecord extends Summary {
  file: string;
  description: string;
  copyright: boolean;
  created: string | null;
}

export interface DocumentRecord extends Summary {
  body: string;
  created: string;
  last_edited: string;
}

export interface MediaRecord extends Summary {
  url: string;
}
