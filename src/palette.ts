// The categories' colours, one place for the map (legend and footprints, through
// /map/config.json) and the demo's category thumbnails. 22 colours from Paul Tol's
// colour-blind-safe schemes, picked so that every two differ by at least ΔE2000 8.9 in
// normal vision and 6.8 under simulated deuteranopia and protanopia, and none is near the
// grey of "no category" or the map's background (test/unit/palette.test.ts measures it);
// the most distinct come first, so a catalogue with few categories gets those.
// No imports: the web bundle takes it too.

export const CATEGORY_PALETTE: readonly string[] = [
  '#225522', '#004488', '#AAAA00', '#BB5566', '#437DBF', '#99DDFF', '#FEDA8B', '#997700', '#88A5DD', '#906388', '#684957',
  '#44BB99', '#EE6677', '#1965B0', '#A50026', '#F6C141', '#D6604D', '#ACD39E', '#EE8866', '#AE76A3', '#D1BBD7', '#4393C3',
];

/** Footprints in no category. */
export const NO_CATEGORY_COLOUR = '#9CA3AF';

/** The map's background without a base map. */
export const MAP_BACKGROUND = '#F4F1EA';

/** The colour of the category with `rank` categories of lower id before it (beyond 22: round again). */
export function categoryColour(rank: number): string {
  return CATEGORY_PALETTE[rank % CATEGORY_PALETTE.length]!;
}
