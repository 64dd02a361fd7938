// The IIIF render process's entry (render-process.ts): answers each job it is sent.
import { serveJobs } from '../work/niced-process.js';
import { runRenderJob } from './render.js';

serveJobs(runRenderJob);
