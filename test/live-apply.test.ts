// The live-update proof with `apply` instead of `import` (issue 22).
import { liveUpdateSuite } from './support/live-update.js';

liveUpdateSuite('sqlite', 'apply');
