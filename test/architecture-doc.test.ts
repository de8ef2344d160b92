// docs/architecture.md is the map: every file or folder it names exists, and its floors are the
// floors the import rule enforces (.dependency-cruiser.cjs), so the map cannot drift from the code.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import test from 'ava';

const doc = readFileSync('docs/architecture.md', 'utf8');
const require = createRequire(import.meta.url);

test('every path the map names exists', (t) => {
  const paths = [...doc.matchAll(/`((?:src|rest|schema|test|bench|docs)\/[^`\s]*)`/g)].map((m) => m[1])
    .filter((path) => !/[<*{]/.test(path));
  t.true(paths.length > 50, 'the map names paths');
  t.deepEqual([...new Set(paths.filter((path) => !existsSync(path)))], []);
});

test('the map draws the floors the import rule enforces, bottom to top', (t) => {
  const config = require('../.dependency-cruiser.cjs') as { forbidden: { name: string; to: { path?: string } }[] };
  const floorRules = config.forbidden.filter((rule) => rule.name.startsWith('floor-'));
  const floors = [...floorRules.map((rule) => rule.name.slice('floor-'.length)), /\(([^|)]*)\)\/$/.exec(floorRules.at(-1)!.to.path!)![1].split('|').at(-1)!];
  const drawn = /## Floors\n[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1];
  t.truthy(drawn, 'a "Floors" section with a drawing');
  const order = [...drawn!.matchAll(/\b([a-z][a-z-]+)\/?\s/g)].map((m) => m[1]).filter((name) => floors.includes(name));
  t.deepEqual([...new Set(order)].reverse(), floors);
});
