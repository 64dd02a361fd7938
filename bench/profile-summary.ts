// Where a server's CPU went: a .cpuprofile (node --cpu-prof) summed by function, self time
// and inclusive time (a function counted once per sample however deep it recurs), as shares
// of the samples, so that a noisy machine distorts them little.
// node --import tsx bench/profile-summary.ts file.cpuprofile [--top 30]
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '').replace(/^.*\/(dist|src)\//, '$1/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
};

export function summarise(profile: Profile, top = 30): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy++;
    self.set(label(node), (self.get(label(node)) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(label(byId.get(at)!));
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
  }
  const table = (counts: Map<string, number>) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([name, n]) => `${((100 * n) / busy).toFixed(1).padStart(6)} %  ${name}`).join('\n');
  return `${busy} busy samples (idle left out)\n\nself time:\n${table(self)}\n\ninclusive time:\n${table(inclusive)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts file.cpuprofile [--top N]');
  const at = process.argv.indexOf('--top');
  process.stdout.write(summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, at === -1 ? 30 : Number(process.argv[at + 1])));
}
