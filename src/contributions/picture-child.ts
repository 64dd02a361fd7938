// The picture process's entry (picture-process.ts): prepares each picture it is sent.
import { serveJobs } from '../work/niced-process.js';
import { preparePicture } from './pictures.js';

serveJobs((bytes: Uint8Array) => preparePicture(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
