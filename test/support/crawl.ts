// Every answer of a server: each collection page by page (following `next`) and each
// record's detail path, with the server's own origin replaced so two servers compare.
import { COLLECTIONS } from '../../src/constants.js';
import type { HttpTarget } from './http.js';

export async function crawl(target: HttpTarget, pageSize = 7): Promise<Map<string, string>> {
  const { origin } = target;
  const answers = new Map<string, string>();
  const strip = (text: string) => text.replaceAll(origin, 'ORIGIN');
  for (const collection of COLLECTIONS) {
    let next: string | null = `${origin}/api/v1/${collection}/?page_size=${pageSize}`;
    while (next !== null) {
      const url = new URL(next);
      const answer = await target.request(url.pathname + url.search);
      answers.set(url.pathname + url.search, strip(answer.text));
      const body = answer.json();
      next = body.next;
      const records = collection === 'features' ? body.results.features : body.results;
      for (const record of records) {
        const detail = `/api/v1/${collection}/${record.id}/`;
        answers.set(detail, strip((await target.request(detail)).text));
      }
    }
  }
  return answers;
}
