// vt-pbf ships no types: the two functions used, as its README documents them.
declare module 'vt-pbf' {
  interface GeojsonVtLayer {
    features: readonly unknown[];
  }
  /** vector-tile-js's layer interface: `length` features, read by index. */
  interface VectorTileJsLayer {
    version?: number;
    name: string;
    extent: number;
    length: number;
    feature(i: number): unknown;
  }
  const vtpbf: {
    /** Layers by name (tiles from geojson-vt's getTile) → an uncompressed Mapbox Vector Tile. */
    fromGeojsonVt(layers: Record<string, GeojsonVtLayer>, options?: { version?: number; extent?: number }): Uint8Array;
    /** Layers in vector-tile-js's interface → an uncompressed Mapbox Vector Tile. */
    fromVectorTileJs(tile: { layers: Record<string, VectorTileJsLayer> }): Uint8Array;
  };
  export default vtpbf;
}
