// Every command of the README's "Operate it" section, read from README.md, works as written on a
// database holding the demo instance (what a fresh `npm start` leaves).
import { readFileSync } from 'node:fs';
import test from 'ava';
import { freshDatabaseUrl } from './helpers/db.ts';
import { runCli } from './helpers/process.ts';

/** The arguments after `npm run cli --` of each command line in the section's sh blocks. */
function operateCommands(): string[][] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Operate it'));
  if (!section) throw new Error('README.md has no "Operate it" section');
  const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) => block[1]!.split('\n')).filter((line) => line.trim());
  return lines.map((line) => {
    const words = [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
    if (words.slice(0, 4).join(' ') !== 'npm run cli --') throw new Error(`not a CLI command: ${line}`);
    return words.slice(4);
  });
}

test('the README commands of "Operate it" work as written on the demo instance', async (t) => {
  t.timeout(180_000, 'one CLI process per command');
  const env = { DATABASE_URL: await freshDatabaseUrl() };
  const demo = await runCli(['demo'], env);
  t.is(demo.code, 0, demo.stderr);
  const commands = operateCommands();
  t.true(commands.length >= 5);
  for (const args of commands) {
    const result = await runCli(args, env);
    t.is(result.code, 0, `npm run cli -- ${args.join(' ')}: ${result.stderr}`);
  }
});
