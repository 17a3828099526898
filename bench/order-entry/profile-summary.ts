import fs from 'node:fs';
import path from 'node:path';

/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): self time by category (idle, GC, node internals,
 * each npm package, our own code by folder) and the functions with the most self and total time.
 *
 *   npx tsx bench/order-entry/profile-summary.ts FILE.cpuprofile [top]
 */

export type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
export type Profile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

const root = path.resolve(import.meta.dirname, '../..');

function category(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return `npm ${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const file = url.replace(/^file:\/\//, '');
  const relative = path.relative(root, file);
  if (relative.startsWith('..')) return 'other';
  const parts = relative.split('/');
  return parts.slice(0, Math.min(parts.length - 1, 5)).join('/');
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url === '' ? '' : ` ${path.basename(url.replace(/^file:\/\//, ''))}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'}${file}`;
}

export function readProfile(file: string): Profile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
}

export function summariseProfile(file: string, top = 25): string {
  const profile = readProfile(file);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  const totalUs = profile.endTime - profile.startTime;
  const byCategory = new Map<string, number>();
  const selfByLabel = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    byCategory.set(category(node), (byCategory.get(category(node)) ?? 0) + us);
    selfByLabel.set(label(node), (selfByLabel.get(label(node)) ?? 0) + us);
  }
  // Total (inclusive) time per function label, counting a label once per stack.
  const totalByLabel = new Map<string, number>();
  const inclusive = new Map<number, number>();
  const inclusiveOf = (id: number): number => {
    const cached = inclusive.get(id);
    if (cached !== undefined) return cached;
    const node = byId.get(id)!;
    let sum = selfUs.get(id) ?? 0;
    for (const child of node.children ?? []) sum += inclusiveOf(child);
    inclusive.set(id, sum);
    return sum;
  };
  const walk = (id: number, onStack: Set<string>) => {
    const node = byId.get(id)!;
    const name = label(node);
    const fresh = !onStack.has(name);
    if (fresh) {
      totalByLabel.set(name, (totalByLabel.get(name) ?? 0) + inclusiveOf(id));
      onStack.add(name);
    }
    for (const child of node.children ?? []) walk(child, onStack);
    if (fresh) onStack.delete(name);
  };
  const rootNode = profile.nodes[0]!;
  walk(rootNode.id, new Set());
  const busyUs = totalUs - (byCategory.get('(idle)') ?? 0);
  const pct = (us: number) => `${((us / totalUs) * 100).toFixed(1)}%`;
  const busyPct = (us: number) => `${((us / busyUs) * 100).toFixed(1)}%`;
  const lines: string[] = [];
  lines.push(
    `profile: ${(totalUs / 1e6).toFixed(1)} s wall, ${(busyUs / 1e6).toFixed(1)} s on the main thread (${pct(busyUs)})`,
  );
  lines.push('\nself time by category (share of busy time):');
  for (const [name, us] of [...byCategory].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    if (name === '(idle)') continue;
    lines.push(`  ${busyPct(us).padStart(6)}  ${name}`);
  }
  lines.push(`\ntop ${top} functions by self time (share of busy time):`);
  for (const [name, us] of [...selfByLabel].sort((a, b) => b[1] - a[1]).slice(0, top + 1)) {
    if (name.startsWith('(idle)')) continue;
    lines.push(`  ${busyPct(us).padStart(6)}  ${name}`);
  }
  lines.push(`\ntop ${top} functions by total time (share of busy time), our code only:`);
  const ours = [...totalByLabel].filter(([name]) => /\.ts:\d+$/.test(name) && !name.includes('node_modules'));
  for (const [name, us] of ours.sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`  ${busyPct(us).padStart(6)}  ${name}`);
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top]');
  console.log(summariseProfile(file, Number(process.argv[3] ?? 25)));
}
