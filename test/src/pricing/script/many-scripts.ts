// Run by many-scripts.test.ts in a process of its own (so that its stderr, where the QuickJS
// instance prints an abort, can be read): `node --expose-gc many-scripts.ts <count>` runs `count` rule
// scripts, failing kinds among them, and prints one JSON line with the outcome and the memory
// after the warm-up and at the end. It stops at the first unexpected outcome.
import * as ruleScripts from '../../../../src/pricing/script/run-rule-script.ts';

const { runRuleScript, scriptSyntaxError } = ruleScripts;
// Older versions have neither the CPU budget argument nor the stats; tolerated, to compare.
const stats = (ruleScripts as { sandboxStats?: () => { instancesLoaded: number; instancesRetired: number; memoryBytes: number } }).sandboxStats;
const count = Number(process.argv[2] ?? 10_000);
const WARM_UP = Math.min(500, count);
const SMALL_BUDGET = { interruptChecks: 5 };

interface Kind { name: string; source: string; expect: RegExp | object; syntaxCheck?: boolean }
const NORMAL: Kind = {
  name: 'normal',
  source: 'return { annotations: { x: dec.add(input.a, "0.2") }, subtotals: [{ component: "fee", amount_excl_vat: dec.mul(input.a, "3") }] }',
  expect: { annotations: { x: '0.30' }, subtotals: [{ component: 'fee', label: 'fee', amount_excl_vat: '0.30' }] },
};
const FAILING: Kind[] = [
  { name: 'endless loop', source: 'while (true) {}', expect: /CPU budget/ },
  { name: 'memory hog', source: 'const a = []; for (;;) a.push(new Uint8Array(1 << 20));', expect: /used up its memory/ },
  { name: 'one huge allocation', source: 'return { annotations: { n: String(new ArrayBuffer(2 ** 30).byteLength) } }', expect: /used up its memory/ },
  { name: 'throws', source: 'throw new Error("no tariff")', expect: /failed: Error: no tariff$/ },
  { name: 'throws a promise', source: 'throw Promise.reject(new Error("late"))', expect: /rejected.*late/ },
  { name: 'bad result', source: 'return 42', expect: /must return an object/ },
  { name: 'bad decimal', source: 'return { subtotals: [{ component: "x", amount_excl_vat: 1.5 }] }', expect: /decimal string/ },
  { name: 'syntax error', source: 'return {', expect: /SyntaxError/ },
  { name: 'syntax error, checked', source: 'return {', expect: /expecting/, syntaxCheck: true },
  { name: 'endless recursion', source: 'function f() { return f() + 1; } f();', expect: /stack/ },
];
// Every 100 scripts: each failing kind once, 90 normal ones.
const kindOf = (i: number): Kind => FAILING[i % 100] ?? NORMAL;

/** How many 256 KiB blocks the instance can still allocate (at most 128): its free memory. */
function freeBlocks(): number {
  const output = runRuleScript('probe', `
    let a = [];
    let n = 0;
    try { while (n < 128) { a.push(new Uint8Array(1 << 18)); n++; } } catch (e) { /* full */ }
    a = null;
    return { annotations: { n: String(n) } };`, {});
  return Number(output.annotations.n);
}

function outcome(kind: Kind): unknown {
  try {
    if (kind.syntaxCheck) return scriptSyntaxError(kind.source);
    return runRuleScript('r', kind.source, { a: '0.1' }, SMALL_BUDGET);
  } catch (error) {
    return (error as Error).message;
  }
}

function expected(kind: Kind, actual: unknown): boolean {
  if (kind.expect instanceof RegExp) return typeof actual === 'string' && kind.expect.test(actual);
  return JSON.stringify(actual) === JSON.stringify(kind.expect);
}

const gc = (globalThis as { gc?: () => void }).gc;
const measure = () => {
  const blocks = freeBlocks();
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed, freeBlocks: blocks, ...stats?.() };
};
const started = performance.now();
let warm: ReturnType<typeof measure> | null = null;
let unexpected: { index: number; kind: string; actual: unknown } | null = null;
const perKind: Record<string, number> = {};
for (let i = 0; i < count; i++) {
  if (i === WARM_UP) warm = measure();
  const kind = kindOf(i);
  const actual = outcome(kind);
  perKind[kind.name] = (perKind[kind.name] ?? 0) + 1;
  if (!expected(kind, actual)) {
    unexpected = { index: i, kind: kind.name, actual };
    break;
  }
}
const end = measure();
process.stdout.write(`${JSON.stringify({ ran: Object.values(perKind).reduce((a, b) => a + b, 0), perKind, unexpected, warm, end, ms: Math.round(performance.now() - started) })}\n`);
