// What `serve` checks before it starts and explains when it cannot: the media folder, an
// address it cannot listen on, and pictures that no media folder serves. Each failure is one
// sentence naming the flag, instead of node's `ENOENT … realpath` or `listen EADDRINUSE`.
import fs from 'node:fs';
import type { Config } from '../config.js';
import { SETTINGS, settingName } from '../settings/table.js';
import type { CatalogueReader } from '../store/store.js';
import { CliError } from './io.js';
import { errorCode } from '../caught.js';

const MEDIA_ROOT = settingName('mediaRoot');

/** The media folder must exist, be a folder and be readable; checked once, before listening. */
export function checkMediaRoot(root: string | null): void {
  if (root === null) return;
  try {
    if (!fs.statSync(root).isDirectory()) throw new CliError(`${MEDIA_ROOT} ${root} is a file, not a folder.`);
    fs.accessSync(root, fs.constants.R_OK | fs.constants.X_OK);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${MEDIA_ROOT} ${root}: ${fileProblem(error)}.`);
  }
}

function fileProblem(error: unknown): string {
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return `cannot be read (${code ?? String(error)})`;
}

/** A listen error as one sentence naming the flag; any other error unchanged. */
export function explainListenError(error: unknown, config: Pick<Config, 'host' | 'port'>): unknown {
  const where = `port ${config.port} on ${config.host}`;
  switch (errorCode(error)) {
    case 'EADDRINUSE':
      return new CliError(`${where} is already in use (${settingName('port')}): stop what listens there, or choose another port.`);
    case 'EACCES':
      return new CliError(`${where} needs privileges this process does not have (${settingName('port')}): choose a port above 1023, or let a proxy take port 80/443.`);
    case 'EADDRNOTAVAIL':
      return new CliError(`${settingName('host')} ${config.host} is not an address of this machine.`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new CliError(`${settingName('host')} ${config.host}: no such host.`);
    default:
      return error;
  }
}

/** The warning to print when the catalogue links pictures that no media folder serves; null when none. */
export async function unservedPicturesWarning(store: CatalogueReader, config: Pick<Config, 'mediaRoot'>): Promise<string | null> {
  if (config.mediaRoot !== null) return null;
  let images: number, thumbnails: number;
  try {
    ({ images, thumbnails } = await store.linkedPictures());
  } catch {
    // Only a warning: a database slow to answer now must not stop a server that is listening.
    return null;
  }
  if (images === 0 && thumbnails === 0) return null;
  return `warning: the catalogue links ${images} image file(s) and ${thumbnails} category thumbnail(s) under /media/, but no media folder is set, ` +
    `so each will answer 404: set ${SETTINGS.mediaRoot.flag.name} (or ${SETTINGS.mediaRoot.env}) to the folder holding them.`;
}
