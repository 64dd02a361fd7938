// Do the four collections describe one catalogue? A listed feature's summaries and count
// must match the images, documents and media attached to it, and every nested copy of a
// feature must match its listed form. Collections are walked one after another, so a
// disagreement usually means the source changed between walks.
import { FEATURE_KEYS as F } from '../catalogue/fields.js';
import type { HarvestedRecords } from './rebuild.js';
import type { WireListedFeature, WireNestedFeature, WireSummary } from './wire.js';

const KINDS = ['documents', 'images', 'media'] as const;
type Kind = (typeof KINDS)[number];

interface Attached {
  id: number;
  title: string;
}

export function collectionDisagreements(records: HarvestedRecords): string[] {
  const listed = new Map(records.features.map((f) => [f.id, f]));
  const attached = new Map<number, Record<Kind, Attached[]>>();
  const found: string[] = [];
  for (const kind of KINDS) {
    for (const r of records[kind]) {
      const feature = listed.get(r.feature.id);
      if (feature === undefined) {
        found.push(`${kind} ${r.id} is attached to feature ${r.feature.id}, which /features/ does not list`);
        continue;
      }
      const lists = attached.get(feature.id) ?? { documents: [], images: [], media: [] };
      lists[kind].push({ id: r.id, title: r.title });
      attached.set(feature.id, lists);
      const differs = nestedDifference(r.feature, feature);
      if (differs !== null) found.push(`feature ${feature.id} nested in ${kind} ${r.id} differs in ${differs}`);
    }
  }
  for (const feature of records.features) found.push(...summaryDisagreements(feature, attached.get(feature.id)));
  return found;
}

function summaryDisagreements(f: WireListedFeature, attached: Record<Kind, Attached[]> | undefined): string[] {
  const found: string[] = [];
  let total = 0;
  for (const kind of KINDS) {
    const records = attached?.[kind] ?? [];
    total += records.length;
    const summaries = f.properties[kind];
    if (ids(summaries) !== ids(records)) found.push(`feature ${f.id} summarises ${kind} [${ids(summaries)}] but /${kind}/ attaches [${ids(records)}]`);
    else found.push(...titleDisagreements(f.id, kind, summaries, records));
  }
  if (f.properties.count !== total) found.push(`feature ${f.id} counts ${f.properties.count} attached items, /images/, /documents/ and /media/ hold ${total}`);
  return found;
}

function titleDisagreements(featureId: number, kind: Kind, summaries: WireSummary[], records: Attached[]): string[] {
  return summaries.flatMap((s, i) => {
    const title = records[i]?.title;
    return s.title === undefined || s.title === title ? [] : [`feature ${featureId} titles ${kind} ${s.id} ${JSON.stringify(s.title)}, /${kind}/ titles it ${JSON.stringify(title)}`];
  });
}

function ids(list: { id: number }[]): string {
  return list.map((r) => r.id).join(', ');
}

/** The nested form writes null strings as "" (api-spec.md). */
function nestedDifference(nested: WireNestedFeature, listed: WireListedFeature): string | null {
  const n = nested.properties;
  const l = listed.properties;
  if (n[F.name] !== (l[F.name] ?? '')) return F.name;
  if (n.street !== (l.street ?? '')) return 'street';
  if (n.address !== l.address) return 'address';
  if (n[F.type] !== l[F.type]) return F.type;
  if (n.count !== l.count) return 'count';
  if (JSON.stringify(nested.geometry) !== JSON.stringify(listed.geometry)) return 'geometry';
  return null;
}
