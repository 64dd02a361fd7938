// Run by `npm test` before the test files start, several at a time: what they share and would
// otherwise race to make. The map page's bundle (dist/web/) is removed and rebuilt whole by
// whichever file finds it stale first, under another file's running server; and the compiled
// command line (dist/), which the tests spawn. Built here once, every file finds them fresh.
// And the test database's catalogues vacuumed (stores.ts).
// Then the tests themselves, compiled to JavaScript (compiled-tests.ts), which npm test runs.
import { ensureCliBuilt } from './cli-entry.js';
import { compileTests } from './compiled-tests.js';
import { ensureWebBuilt } from './map-page.js';
import { vacuumTestDatabase } from './stores.js';

ensureCliBuilt();
await ensureWebBuilt();
await compileTests();
await vacuumTestDatabase();
