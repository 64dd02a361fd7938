// A stored vector tile edited instead of made again (apply): the features of some ids taken
// out, those of a small tile made of the changed footprints put in, in id order. A crowded
// tile holds up to the whole catalogue, and making it again costs seconds; its bytes are
// edited in milliseconds. The layer is written as vt-pbf writes one (version, name, extent,
// features, then keys and values in order of first use), so the SQLite encoder's tiles come
// out byte for byte as made whole. Only what the Mapbox Vector Tile protobuf needs is read.

/** One feature: its id, properties as key and encoded value, geometry type and packed commands. */
interface TileFeature {
  id: number;
  tags: [key: string, value: Buffer][];
  type: number;
  geometry: Buffer;
}

interface TileLayer {
  version: number;
  name: string;
  extent: number;
  features: TileFeature[];
}

const LAYER = 3;
const VARINT = 0;
const BYTES = 2;

/** `old` without the features of `removed`, with those of `added`; null when none is left (an empty tile). */
export function spliceTile(old: Buffer | null, removed: ReadonlySet<number>, added: Buffer | null): Buffer | null {
  const before = old === null ? null : readLayer(old);
  const extra = added === null ? null : readLayer(added);
  const layer = before ?? extra;
  if (layer === null) return null;
  const features = [...(before?.features.filter((f) => !removed.has(f.id)) ?? []), ...(extra?.features ?? [])];
  if (features.length === 0) return null;
  features.sort((a, b) => a.id - b.id);
  return writeTile({ ...layer, features });
}

class Reader {
  pos = 0;
  constructor(readonly bytes: Buffer, readonly end = bytes.length) {}

  varint(): number {
    let value = 0;
    for (let shift = 1; ; shift *= 128) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) throw new Error('a vector tile ends inside a number');
      value += (byte & 0x7f) * shift;
      if (byte < 0x80) return value;
    }
  }

  field(): { field: number; wire: number } | null {
    if (this.pos >= this.end) return null;
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key % 8 };
  }

  slice(): Buffer {
    const length = this.varint();
    const start = this.pos;
    this.pos += length;
    return this.bytes.subarray(start, this.pos);
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === BYTES) this.slice();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw new Error(`a vector tile has a field of wire type ${wire}`);
  }
}

function readLayer(tile: Buffer): TileLayer | null {
  const reader = new Reader(tile);
  let layer: TileLayer | null = null;
  for (let f = reader.field(); f; f = reader.field()) {
    if (f.field === LAYER && f.wire === BYTES && layer === null) layer = parseLayer(reader.slice());
    else reader.skip(f.wire);
  }
  return layer;
}

function parseLayer(bytes: Buffer): TileLayer {
  const reader = new Reader(bytes);
  const layer: TileLayer = { version: 1, name: '', extent: 4096, features: [] };
  const raw: Buffer[] = [];
  const keys: string[] = [];
  const values: Buffer[] = [];
  for (let f = reader.field(); f; f = reader.field()) {
    if (f.field === 15) layer.version = reader.varint();
    else if (f.field === 1) layer.name = reader.slice().toString('utf8');
    else if (f.field === 5) layer.extent = reader.varint();
    else if (f.field === 2) raw.push(reader.slice());
    else if (f.field === 3) keys.push(reader.slice().toString('utf8'));
    else if (f.field === 4) values.push(reader.slice());
    else reader.skip(f.wire);
  }
  layer.features = raw.map((bytes) => parseFeature(bytes, keys, values));
  return layer;
}

function parseFeature(bytes: Buffer, keys: readonly string[], values: readonly Buffer[]): TileFeature {
  const reader = new Reader(bytes);
  const feature: TileFeature = { id: 0, tags: [], type: 0, geometry: Buffer.alloc(0) };
  for (let f = reader.field(); f; f = reader.field()) {
    if (f.field === 1) feature.id = reader.varint();
    else if (f.field === 2) feature.tags = tagsOf(reader.slice(), keys, values);
    else if (f.field === 3) feature.type = reader.varint();
    else if (f.field === 4) feature.geometry = reader.slice();
    else reader.skip(f.wire);
  }
  return feature;
}

function tagsOf(packed: Buffer, keys: readonly string[], values: readonly Buffer[]): [string, Buffer][] {
  const reader = new Reader(packed);
  const tags: [string, Buffer][] = [];
  while (reader.pos < packed.length) {
    const key = keys[reader.varint()];
    const value = values[reader.varint()];
    if (key === undefined || value === undefined) throw new Error('a vector tile feature names a key or value its layer lacks');
    tags.push([key, value]);
  }
  return tags;
}

class Writer {
  private readonly chunks: Buffer[] = [];

  varint(value: number): this {
    const bytes: number[] = [];
    let rest = value;
    while (rest >= 0x80) {
      bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
    this.chunks.push(Buffer.from(bytes));
    return this;
  }

  varintField(field: number, value: number): this {
    return this.varint(field * 8 + VARINT).varint(value);
  }

  bytesField(field: number, bytes: Buffer): this {
    this.varint(field * 8 + BYTES).varint(bytes.length);
    this.chunks.push(bytes);
    return this;
  }

  done(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** As vt-pbf's writeLayer: keys and values numbered in order of first use. */
function writeTile(layer: TileLayer): Buffer {
  const out = new Writer().varintField(15, layer.version).bytesField(1, Buffer.from(layer.name, 'utf8')).varintField(5, layer.extent);
  const keys = new Map<string, number>();
  const values = new Map<string, { index: number; bytes: Buffer }>();
  for (const feature of layer.features) {
    const tags = new Writer();
    for (const [key, value] of feature.tags) {
      if (!keys.has(key)) keys.set(key, keys.size);
      const hex = value.toString('hex');
      if (!values.has(hex)) values.set(hex, { index: values.size, bytes: value });
      tags.varint(keys.get(key)!).varint(values.get(hex)!.index);
    }
    const body = new Writer().varintField(1, feature.id).bytesField(2, tags.done()).varintField(3, feature.type).bytesField(4, feature.geometry);
    out.bytesField(2, body.done());
  }
  for (const key of keys.keys()) out.bytesField(3, Buffer.from(key, 'utf8'));
  for (const { bytes } of values.values()) out.bytesField(4, bytes);
  return new Writer().bytesField(LAYER, out.done()).done();
}
