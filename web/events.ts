// What the page announces to scripts beside it. No imports: the browser tests take the name too.

/** Dispatched on the map's container (bubbling) once the MapLibre map exists; `detail` is the map. */
export const MAP_CREATED_EVENT = 'heritage:map-created';
