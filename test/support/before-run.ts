// Run by `npm test` before the test files start, several at a time: what they share and would
// otherwise race to make. The map page's bundle (dist/web/) is removed and rebuilt whole by
// whichever file finds it stale first, under another file's running server; and the compiled
// command line (dist/), which the tests spawn. Built here once, every file finds them fresh.
import { ensureCliBuilt } from './cli-entry.js';
import { ensureWebBuilt } from './map-page.js';

ensureCliBuilt();
await ensureWebBuilt();
