// Run by `npm test` before the test files start, several at a time: what they share and would
// otherwise race to make. The map page's bundle (dist/web/) is removed and rebuilt whole by
// whichever file finds it stale first, under another file's running server; built here once,
// every file's ensureWebBuilt() finds it fresh.
import { ensureWebBuilt } from './map-page.js';

await ensureWebBuilt();
