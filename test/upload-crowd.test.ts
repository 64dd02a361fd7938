import { uploadCrowdSuite } from './support/upload-crowd.js';

uploadCrowdSuite('sqlite');
