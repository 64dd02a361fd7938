// Reads that an invariant says cannot miss (an index within bounds, a key put in before):
// a broken one throws at once, naming what was missing, instead of flowing on as undefined.
// For cold paths and mixed lists; a hot loop over one kind of array checks its own reads
// (a helper shared by many kinds of array would make V8's loads in it generic).

/** The item at an index that must be within the list. */
export function at<T>(list: ArrayLike<T>, index: number): T {
  const item = list[index];
  if (item === undefined) throw missing(`item ${index} of ${list.length}`);
  return item;
}

/** The value of a key that must be in the map. */
export function got<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  const value = map.get(key);
  if (value === undefined) throw missing(`key ${String(key)}`);
  return value;
}

export function missing(what: string): Error {
  return new Error(`Broken invariant: no ${what}`);
}

/**
 * For hot loops that read and check in place (`const v = a[i]; if (v === undefined)
 * outOfBounds();`): no arguments, so the check adds next to nothing to the function and
 * V8 inlines it as before.
 */
export function outOfBounds(): never {
  throw missing('entry: an index read past the end of its list');
}
