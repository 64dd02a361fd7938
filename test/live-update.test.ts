import { liveUpdateSuite } from './support/live-update.js';

liveUpdateSuite('sqlite');
