import { keptExtentsSuite } from './support/kept-extents.js';

keptExtentsSuite('sqlite');
