// /metrics under `serve --workers N`: each worker counts in its own registry, so the worker
// that takes a scrape asks the primary over the cluster's IPC channel; the primary gathers
// every worker's registry (prom-client's AggregatorRegistry) and answers with one text for
// the whole server. How each metric combines is its `aggregator` (metrics.ts): sum unless
// said otherwise.
import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

const SCRAPE = 'heritage-api:scrape';
const SCRAPED = 'heritage-api:scraped';
/** Longer than prom-client's own 5 s wait for the workers' answers. */
const SCRAPE_TIMEOUT_MS = 7000;

interface Scraped {
  type: typeof SCRAPED;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answers the workers' requests for the whole server's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: number }) => {
    if (message?.type !== SCRAPE) return;
    const reply = (answer: Omit<Scraped, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPED, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: Error) => reply({ error: error.message }),
    );
  });
}

/**
 * In a cluster worker: offers the registry to the primary's aggregation and returns the
 * scrape of /metrics (the whole server's text). Outside a cluster worker: null.
 */
export function workerScrape(registry: Registry): (() => Promise<string>) | null {
  // A cluster worker talks to the primary over its IPC channel (process.send).
  const send = process.send?.bind(process);
  if (!cluster.isWorker || send === undefined) return null;
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one makes prom-client answer the primary's requests in this worker.
  new AggregatorRegistry();
  const waiting = new Map<number, (answer: Scraped) => void>();
  let next = 0;
  process.on('message', (message: Scraped) => {
    if (message?.type === SCRAPED) waiting.get(message.id)?.(message);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => settle({ type: SCRAPED, id, error: 'the primary process did not answer' }), SCRAPE_TIMEOUT_MS);
      const settle = (answer: Scraped) => {
        clearTimeout(timer);
        waiting.delete(id);
        if (answer.text !== undefined) resolve(answer.text);
        else reject(new Error(`metrics of the other workers: ${answer.error}`));
      };
      waiting.set(id, settle);
      send({ type: SCRAPE, id });
    });
}
