import { importProgressSuite } from './support/import-progress.js';

importProgressSuite();
