import fs from 'node:fs';
import { generateDemoCatalogue } from '../catalogue/demo.js';
import { loadConfig, type RawSettings } from '../config.js';
import { startServer } from '../server.js';
import { isPostgresUrl, openStore } from '../store/open.js';
import { step, summarise } from './report.js';

export interface ServeOptions extends RawSettings {
  initDemo?: boolean;
}

/** Serve until SIGINT/SIGTERM, then drain requests in flight and exit. */
export async function runServe(options: ServeOptions): Promise<number> {
  const { initDemo, ...settings } = options;
  const config = loadConfig(settings);
  if (initDemo && !isPostgresUrl(config.database) && !fs.existsSync(config.database)) await buildDemoDatabase(config.database);
  const server = await startServer(config);
  process.stderr.write(`heritage-api serving ${config.database} at ${server.address}/api/v1/\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

async function buildDemoDatabase(database: string): Promise<void> {
  process.stderr.write(`${database} does not exist yet: building the demo catalogue into it.\n`);
  const catalogue = await step('Generating the demo catalogue', () => generateDemoCatalogue({ scale: 1, seed: 1 }));
  const store = await openStore(database, { create: true });
  try {
    await step(`Writing ${database}`, () => store.replaceCatalogue(catalogue));
  } finally {
    await store.close();
  }
  process.stderr.write(`Demo catalogue ready: ${summarise(catalogue)}.\n`);
}
