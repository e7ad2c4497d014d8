/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`, written by `npm run bench -- --profile`):
 * the functions with the most self time, and the time spent under each of a few well-known frames.
 *   node --import tsx bench/profile-summary.ts bench/results/profiles/CPU.….cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.ts FILE.cpuprofile [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const selfTime = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const sampled = [...selfTime.values()].reduce((sum, time) => sum + time, 0);

const short = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\//, '')
    .replace(/.*\/(dist|src)\//, '$1/');
const label = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${short(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

const selfByLabel = new Map<string, number>();
for (const [id, time] of selfTime) {
  const key = label(byId.get(id)!);
  selfByLabel.set(key, (selfByLabel.get(key) ?? 0) + time);
}

/** Time under frames whose label matches, counted once per sample however deep the recursion. */
const inclusive = (pattern: RegExp) => {
  let time = 0;
  for (const [id, spent] of selfTime) {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (pattern.test(label(byId.get(at)!))) {
        time += spent;
        break;
      }
    }
  }
  return time;
};

const idle = selfByLabel.get('(idle) :0') ?? 0;
/** Percentages are of busy time: the server sits idle while the ceiling runs. */
const busy = sampled - idle;
const percent = (time: number) => `${((time / busy) * 100).toFixed(1).padStart(5)}%`;
process.stdout.write(
  `sampled ${(sampled / 1e6).toFixed(2)} s, busy ${(busy / 1e6).toFixed(2)} s; percentages are of busy time\n\nself time:\n`,
);
for (const [key, time] of [...selfByLabel]
  .filter(([key]) => key !== '(idle) :0')
  .sort((a, b) => b[1] - a[1])
  .slice(0, top)) {
  process.stdout.write(`${percent(time)}  ${key}\n`);
}
const groups: Array<[string, RegExp]> = [
  ['(garbage collector)', /^\(garbage collector\)/],
  ['authenticate', /^authenticate /],
  ['rate limiter consume', /^consume /],
  ['JSON.parse', /^parse /],
  ['JSON.stringify', /^stringify /],
  ['better-sqlite3 calls', /^(get|all|run) /],
  ['createHash / digest', /^(createHash|digest|update|Hash) /],
  ['write queue flush', /^flush /],
  ['applyUpdate', /^applyUpdate /],
  ['buildNewEvent', /^buildNewEvent /],
  ['structuredClone', /^structuredClone /],
  ['fastify handleRequest', /^handleRequest /],
  ['pino logging', /pino/],
];
process.stdout.write('\ninclusive time under:\n');
for (const [name, pattern] of groups) process.stdout.write(`${percent(inclusive(pattern))}  ${name}\n`);
