// A record's form for editors (issue 47): edit, add, delete. (Filled in by its own step.)
import type { FastifyInstance } from 'fastify';
import type { EditDesk } from './routes.js';

export function registerRecordRoutes(_scope: FastifyInstance, _desk: EditDesk): void {}
