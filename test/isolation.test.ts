import { isolationSuite } from './support/isolation.js';

isolationSuite('sqlite');
