// Media files under /media/ when a media root is configured: percent-decoded paths,
// no directory listings, nothing outside the root (`..`, encoded dots, symlinks out), no
// dotfiles (`.env`, `.git/`). The files are served from the site's own origin, and the
// folder may hold what a harvest brought: a sandboxing CSP keeps an HTML or SVG file from
// running script or reaching anything as the site.
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MEDIA_PREFIX } from '../../constants.js';
import { ERRORS } from '../../errors.js';

/** Sent with every media file: no script, no requests, a unique origin (sandbox). */
export const MEDIA_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** The decoded relative path if every segment is a plain name (none starting with `.`), else null. */
export function safeMediaPath(wildcard: string): string | null {
  const segments = wildcard.split('/');
  const plain = segments.every((s) => s !== '' && !s.startsWith('.') && !s.includes('\\') && !s.includes('\0'));
  return plain ? segments.join('/') : null;
}

/** Resolves symlinks and answers only files that really lie inside the root. */
async function resolveInside(root: string, relative: string): Promise<string | null> {
  try {
    const real = await fs.realpath(path.join(root, relative));
    const stat = await fs.stat(real);
    if (!stat.isFile() || !real.startsWith(root + path.sep)) return null;
    // A symlink to a dotfile is refused like the dotfile.
    return safeMediaPath(path.relative(root, real).split(path.sep).join('/'));
  } catch {
    return null;
  }
}

/** The real path of a file under the media root (`root` resolved already), by the same rules as /media/ serves it, or null. */
export async function mediaFileInside(root: string, wildcard: string): Promise<string | null> {
  const relative = safeMediaPath(wildcard);
  const inside = relative === null ? null : await resolveInside(root, relative);
  return inside === null ? null : path.join(root, inside);
}

/** Registers `/media/*` and returns how a path under the root is sent (contributed-pictures.ts's fallback too). */
export async function registerMedia(app: FastifyInstance, mediaRoot: string): Promise<(reply: FastifyReply, relative: string) => Promise<FastifyReply>> {
  const root = await fs.realpath(mediaRoot);
  await app.register(fastifyStatic, { root, serve: false, index: false, list: false, dotfiles: 'ignore' });
  const send = async (reply: FastifyReply, wildcard: string) => {
    const relative = safeMediaPath(wildcard);
    const inside = relative === null ? null : await resolveInside(root, relative);
    if (inside === null) throw ERRORS.notFound();
    return reply.header('content-security-policy', MEDIA_CSP).sendFile(inside);
  };
  app.get<{ Params: { '*': string } }>(`${MEDIA_PREFIX}*`, async (request, reply) => send(reply, request.params['*']));
  return send;
}
