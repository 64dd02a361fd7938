import { liveUpdateSuite } from '../support/live-update.js';
import { onPostgres } from '../support/on-postgres.js';

await onPostgres(async () => liveUpdateSuite('postgres', 'apply'));
