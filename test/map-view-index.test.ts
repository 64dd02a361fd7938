import { mapViewIndexSuite } from './support/map-view-index.js';

mapViewIndexSuite('sqlite');
