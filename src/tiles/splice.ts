// A stored vector tile edited instead of made again (apply): the features of some ids taken
// out, those of a small tile made of the changed footprints put in, in id order. A crowded
// tile holds up to the whole catalogue: made again it costs seconds, edited milliseconds.
// Features kept are copied as bytes with their property numbers; the added ones' numbers
// are those of the stored tile's keys and values, new ones appended. A key or value only a
// removed feature used stays in the tables, unused (allowed by the Mapbox Vector Tile
// specification; the next import writes the tile afresh), so decoded, the tile holds what
// the encoder would make; its bytes may differ. Only what the protobuf needs is read.

/** Where a feature lies in its layer's bytes. */
interface FeatureSpan {
  id: number;
  layer: ParsedLayer;
  /** Its field in the layer (key and length first), and the feature message's content. */
  from: number;
  start: number;
  end: number;
}

interface ParsedLayer {
  bytes: Buffer;
  version: number;
  name: string;
  extent: number;
  features: FeatureSpan[];
  keys: string[];
  /** Each value's encoded bytes. */
  values: Buffer[];
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
  const features = mergeById(before?.features.filter((f) => !removed.has(f.id)) ?? [], extra?.features ?? []);
  if (features.length === 0) return null;
  return writeTile(layer, features, [before, extra].filter((l): l is ParsedLayer => l !== null));
}

function mergeById(a: FeatureSpan[], b: FeatureSpan[]): FeatureSpan[] {
  const merged: FeatureSpan[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.id <= b[j]!.id)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

/** A cursor over protobuf bytes. */
class Reader {
  constructor(readonly bytes: Buffer, public pos = 0, readonly end = bytes.length) {}

  varint(): number {
    let value = 0;
    for (let shift = 1; ; shift *= 128) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) throw new Error('a vector tile ends inside a number');
      value += (byte & 0x7f) * shift;
      if (byte < 0x80) return value;
    }
  }

  /** The next field's number and wire type; null at the end. */
  field(): { field: number; wire: number } | null {
    if (this.pos >= this.end) return null;
    const key = this.varint();
    return { field: Math.floor(key / 8), wire: key % 8 };
  }

  /** The next field's key (number × 8 + wire type); -1 at the end. No object per field: a layer has one per feature. */
  key(): number {
    return this.pos >= this.end ? -1 : this.varint();
  }

  /** A length-delimited field's content as [start, end), the cursor past it. */
  span(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    this.pos += length;
    return [start, this.pos];
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === BYTES) this.span();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw new Error(`a vector tile has a field of wire type ${wire}`);
  }
}

function readLayer(tile: Buffer): ParsedLayer | null {
  const reader = new Reader(tile);
  for (let f = reader.field(); f; f = reader.field()) {
    if (f.field === LAYER && f.wire === BYTES) {
      const [start, end] = reader.span();
      return parseLayer(tile, start, end);
    }
    reader.skip(f.wire);
  }
  return null;
}

function parseLayer(bytes: Buffer, start: number, end: number): ParsedLayer {
  const reader = new Reader(bytes, start, end);
  const layer: ParsedLayer = { bytes, version: 1, name: '', extent: 4096, features: [], keys: [], values: [] };
  for (let key = reader.key(); key !== -1; key = reader.key()) {
    if (key === FEATURE_KEY) {
      const from = reader.pos - 1;
      const length = reader.varint();
      layer.features.push(featureAt(layer, from, reader.pos, (reader.pos += length)));
    } else if (key === 15 * 8 + VARINT) layer.version = reader.varint();
    else if (key === 5 * 8 + VARINT) layer.extent = reader.varint();
    else if (key === 1 * 8 + BYTES || key === 3 * 8 + BYTES) {
      const [from, to] = reader.span();
      const text = bytes.toString('utf8', from, to);
      if (key === 1 * 8 + BYTES) layer.name = text;
      else layer.keys.push(text);
    } else if (key === 4 * 8 + BYTES) layer.values.push(bytes.subarray(...reader.span()));
    else reader.skip(key % 8);
  }
  return layer;
}

const FEATURE_KEY = 2 * 8 + BYTES;
const ID_KEY = 1 * 8 + VARINT;

/** A feature's id: its first field, as every encoder writes it (else found among its fields). */
function featureAt(layer: ParsedLayer, from: number, start: number, end: number): FeatureSpan {
  const reader = new Reader(layer.bytes, start, end);
  for (let key = reader.key(); key !== -1; key = reader.key()) {
    if (key === ID_KEY) return { id: reader.varint(), layer, from, start, end };
    reader.skip(key % 8);
  }
  return { id: 0, layer, from, start, end };
}

/** An added feature's tags: [start, end) of their packed numbers. */
function tagsOf(feature: FeatureSpan): [number, number] {
  const reader = new Reader(feature.layer.bytes, feature.start, feature.end);
  for (let key = reader.key(); key !== -1; key = reader.key()) {
    if (key === 2 * 8 + BYTES) return reader.span();
    reader.skip(key % 8);
  }
  return [feature.start, feature.start];
}

/** Bytes written into one growing buffer. */
class Writer {
  private buffer: Buffer;
  length = 0;

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(size, 64));
  }

  varint(value: number): this {
    this.room(10);
    let rest = value;
    while (rest >= 0x80) {
      this.buffer[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.buffer[this.length++] = rest;
    return this;
  }

  field(field: number, wire: number): this {
    return this.varint(field * 8 + wire);
  }

  bytes(source: Buffer, start = 0, end = source.length): this {
    this.room(end - start);
    source.copy(this.buffer, this.length, start, end);
    this.length += end - start;
    return this;
  }

  lengthDelimited(field: number, source: Buffer, start = 0, end = source.length): this {
    return this.field(field, BYTES).varint(end - start).bytes(source, start, end);
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** The stored layer's tables, the added features' keys and values found in them or appended. */
function writeTile(layer: ParsedLayer, features: FeatureSpan[], sources: ParsedLayer[]): Buffer {
  const out = new Writer(sources.reduce((n, l) => n + l.bytes.length, 0) + 64);
  out.field(15, VARINT).varint(layer.version).lengthDelimited(1, Buffer.from(layer.name, 'utf8')).field(5, VARINT).varint(layer.extent);
  const tables = new Tables(layer);
  const tags = new Writer(256);
  for (let i = 0; i < features.length; i++) {
    const feature = features[i]!;
    if (feature.layer === layer) {
      // A run of kept features lying one after the other is copied at once.
      let last = feature;
      while (features[i + 1]?.layer === layer && features[i + 1]!.from === last.end) last = features[++i]!;
      out.bytes(layer.bytes, feature.from, last.end);
      continue;
    }
    tags.length = 0;
    tables.renumber(feature, tags);
    const body = new Writer(feature.end - feature.start + 16);
    const reader = new Reader(feature.layer.bytes, feature.start, feature.end);
    for (let f = reader.field(); f; f = reader.field()) {
      const from = reader.pos;
      if (f.field === 2) {
        reader.span();
        body.lengthDelimited(2, tags.done());
        continue;
      }
      reader.skip(f.wire);
      body.field(f.field, f.wire).bytes(feature.layer.bytes, from, reader.pos);
    }
    out.lengthDelimited(2, body.done());
  }
  for (const key of tables.keys) out.lengthDelimited(3, Buffer.from(key, 'utf8'));
  for (const value of tables.values) out.lengthDelimited(4, value);
  return new Writer(out.length + 16).lengthDelimited(LAYER, out.done()).done();
}

/** The base layer's keys and values, and those the added features bring. */
class Tables {
  readonly keys: string[];
  readonly values: Buffer[];
  private keyNumbers: Map<string, number> | null = null;
  private valueNumbers: Map<string, number> | null = null;

  constructor(base: ParsedLayer) {
    this.keys = [...base.keys];
    this.values = [...base.values];
  }

  /** An added feature's tags in the written layer's numbers, into `tags`. */
  renumber(feature: FeatureSpan, tags: Writer): void {
    const { layer } = feature;
    const [start, end] = tagsOf(feature);
    const reader = new Reader(layer.bytes, start, end);
    while (reader.pos < end) {
      const key = layer.keys[reader.varint()];
      const value = layer.values[reader.varint()];
      if (key === undefined || value === undefined) throw new Error('a vector tile feature names a key or value its layer lacks');
      this.keyNumbers ??= numbered(this.keys, (k) => k);
      this.valueNumbers ??= numbered(this.values, (v) => v.toString('latin1'));
      tags.varint(numberOf(this.keyNumbers, this.keys, key, key)).varint(numberOf(this.valueNumbers, this.values, value, value.toString('latin1')));
    }
  }
}

/** Each item's first number, by its identity (a key's text, a value's bytes). */
function numbered<T>(items: readonly T[], identity: (item: T) => string): Map<string, number> {
  const numbers = new Map<string, number>();
  items.forEach((item, i) => {
    const id = identity(item);
    if (!numbers.has(id)) numbers.set(id, i);
  });
  return numbers;
}

function numberOf<T>(numbers: Map<string, number>, table: T[], item: T, id: string): number {
  let number = numbers.get(id);
  if (number === undefined) {
    number = table.push(item) - 1;
    numbers.set(id, number);
  }
  return number;
}
