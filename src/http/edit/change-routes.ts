// A change file uploaded by an editor, its preview record by record, and its application as
// one change (issue 47); the latest changes across the catalogue. (Filled in by its own step.)
import type { FastifyInstance } from 'fastify';
import type { EditDesk } from './routes.js';

export async function registerChangeRoutes(_scope: FastifyInstance, _desk: EditDesk): Promise<void> {}
