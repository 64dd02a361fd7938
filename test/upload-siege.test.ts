import { uploadSiegeSuite } from './support/upload-siege.js';

uploadSiegeSuite('sqlite');
