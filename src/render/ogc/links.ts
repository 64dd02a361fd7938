// Links of the OGC face: every one with rel and type (OGC API – Features /req/core/…).
export interface Link {
  href: string;
  rel: string;
  type: string;
  title?: string;
  /** A URL template (OGC API – Tiles: a tile's link). */
  templated?: boolean;
}

export function link(href: string, rel: string, type: string, title?: string): Link {
  return title === undefined ? { href, rel, type } : { href, rel, type, title };
}
