// Media files under /media/ when a media root is configured: percent-decoded paths,
// no directory listings, nothing outside the root (`..`, encoded dots, symlinks out).
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { MEDIA_PREFIX } from '../constants.js';
import { notFound } from './errors.js';

/** The decoded relative path if every segment is a plain name, else null. */
export function safeMediaPath(wildcard: string): string | null {
  const segments = wildcard.split('/');
  const plain = segments.every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('\\') && !s.includes('\0'));
  return plain ? segments.join('/') : null;
}

/** Resolves symlinks and answers only files that really lie inside the root. */
async function resolveInside(root: string, relative: string): Promise<string | null> {
  try {
    const real = await fs.realpath(path.join(root, relative));
    const stat = await fs.stat(real);
    return stat.isFile() && real.startsWith(root + path.sep) ? path.relative(root, real) : null;
  } catch {
    return null;
  }
}

export async function registerMedia(app: FastifyInstance, mediaRoot: string): Promise<void> {
  const root = await fs.realpath(mediaRoot);
  await app.register(fastifyStatic, { root, serve: false, index: false, list: false, dotfiles: 'allow' });
  app.get(`${MEDIA_PREFIX}*`, async (request, reply) => {
    const relative = safeMediaPath((request.params as { '*': string })['*']);
    const inside = relative === null ? null : await resolveInside(root, relative);
    if (inside === null) throw notFound();
    return reply.sendFile(inside);
  });
}
