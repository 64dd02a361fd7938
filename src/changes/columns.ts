// A growable column of numbers in a typed array: 4 or 8 bytes an entry where a JS Map's
// entry costs some 50, so that a diff keeps one entry per record of a 400 MB file cheaply.
type Numbers = Float64Array | Uint32Array;

export class NumberColumn {
  private data: Numbers;
  length = 0;

  /** `f64`: ids and byte offsets (any safe integer); `u32`: lengths and digest halves. */
  constructor(private readonly kind: 'f64' | 'u32') {
    this.data = this.allocate(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = this.allocate(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  at(index: number): number {
    // Past the end: NaN, as an absent index reads in arithmetic.
    return this.data[index] ?? NaN;
  }

  private allocate(size: number): Numbers {
    return this.kind === 'f64' ? new Float64Array(size) : new Uint32Array(size);
  }
}

/** The indexes 0…length-1 in the order of their ids (stable for equal ids). */
export function orderById(ids: NumberColumn): Uint32Array {
  const order = new Uint32Array(ids.length);
  let sorted = true;
  for (let i = 0; i < order.length; i++) {
    order[i] = i;
    if (i > 0 && ids.at(i) < ids.at(i - 1)) sorted = false;
  }
  // Files are usually in id order already: no sort then.
  return sorted ? order : order.sort((a, b) => ids.at(a) - ids.at(b) || a - b);
}
