// Rule scripts run in QuickJS (WebAssembly): no I/O, no host objects, no clock, no randomness;
// a CPU budget counted in interrupt checks (deterministic, with a wall-clock backstop), a memory
// and a stack limit, a fresh runtime per run. The module loads once per process.
import { newQuickJSWASMModule, type QuickJSWASMModule } from 'quickjs-emscripten';
import { isDecimalText } from '../../money/decimal.ts';
import { DomainError } from '../../platform/errors.ts';
import { DECIMAL_PRELUDE } from './decimal-prelude.ts';

export const MAX_SCRIPT_LENGTH = 10_000;
const INTERRUPT_BUDGET = 3_000;
const WALL_CLOCK_MS = 1_000;
const MEMORY_BYTES = 16 * 1024 * 1024;
const STACK_BYTES = 512 * 1024;

// A script that overflows its stack can leave QuickJS unable to free its runtime (an abort of the
// WebAssembly instance). The instance is then replaced by a spare one, loaded ahead of time.
let quickJs: QuickJSWASMModule = await newQuickJSWASMModule();
let spare: QuickJSWASMModule | null = null;
const loadSpare = () => { newQuickJSWASMModule().then((module) => { spare = module; }, () => { spare = null; }); };
loadSpare();

function disposeAll(...handles: { dispose(): void }[]): void {
  try {
    for (const handle of handles) handle.dispose();
  } catch {
    if (spare) {
      quickJs = spare;
      spare = null;
      loadSpare();
    }
  }
}

const LOCKDOWN = `
globalThis.Date = undefined;
Math.random = () => { throw new Error('Math.random is not available in rule scripts'); };
`;

export interface ScriptSubtotal { component: string; label: string; amount_excl_vat: string }
export interface ScriptOutput { annotations: Record<string, string>; subtotals: ScriptSubtotal[] }

export class RuleScriptError extends DomainError {
  constructor(rule: string, message: string) {
    super('rule_script_failed', `the script of rule "${rule}" failed: ${message}`);
  }
}

function wrap(source: string): string {
  return `(function (input, dec) {\n"use strict";\n${source}\n})`;
}

/** A syntax error in the script, or null. */
export function scriptSyntaxError(source: string): string | null {
  const runtime = quickJs.newRuntime();
  const vm = runtime.newContext();
  try {
    const result = vm.evalCode(wrap(source), 'rule.js', { compileOnly: true });
    if (result.error) {
      const error = vm.dump(result.error) as { message?: string };
      result.error.dispose();
      return error?.message ?? String(error);
    }
    result.value.dispose();
    return null;
  } finally {
    disposeAll(vm, runtime);
  }
}

function checkOutput(value: unknown): ScriptOutput {
  if (value === undefined || value === null) return { annotations: {}, subtotals: [] };
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error('the script must return an object with annotations and/or subtotals');
  const { annotations = {}, subtotals = [], ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length) throw new Error(`unknown result members: ${Object.keys(rest).join(', ')}`);
  if (typeof annotations !== 'object' || annotations === null || Array.isArray(annotations)
    || Object.values(annotations).some((v) => typeof v !== 'string' || v.length > 1000)) {
    throw new Error('annotations must map names to strings (at most 1000 characters)');
  }
  if (!Array.isArray(subtotals) || subtotals.length > 20) throw new Error('subtotals must be a list of at most 20 items');
  const checked = subtotals.map((s: Record<string, unknown>, i) => {
    if (typeof s !== 'object' || s === null) throw new Error(`subtotals[${i}] must be an object`);
    if (typeof s.component !== 'string' || !/^[a-z][a-z0-9_]{0,49}$/.test(s.component)) throw new Error(`subtotals[${i}].component must be a name like cpo_markup`);
    if (typeof s.amount_excl_vat !== 'string' || !isDecimalText(s.amount_excl_vat)) {
      throw new Error(`subtotals[${i}].amount_excl_vat must be a decimal string such as "1.25" (at most 6 decimals), not ${JSON.stringify(s.amount_excl_vat)}`);
    }
    const label = typeof s.label === 'string' && s.label.length > 0 ? s.label.slice(0, 255) : s.component;
    return { component: s.component, label, amount_excl_vat: s.amount_excl_vat };
  });
  return { annotations: annotations as Record<string, string>, subtotals: checked };
}

/** Runs the script of `rule` with a frozen copy of `input`; every failure is a RuleScriptError. */
export function runRuleScript(rule: string, source: string, input: unknown): ScriptOutput {
  try {
    return runInSandbox(rule, source, input);
  } catch (error) {
    if (error instanceof RuleScriptError) throw error;
    throw new RuleScriptError(rule, `the sandbox failed (${(error as Error).message}); the session can be retried`);
  }
}

function runInSandbox(rule: string, source: string, input: unknown): ScriptOutput {
  const runtime = quickJs.newRuntime();
  runtime.setMemoryLimit(MEMORY_BYTES);
  runtime.setMaxStackSize(STACK_BYTES);
  let checks = 0;
  const deadline = Date.now() + WALL_CLOCK_MS;
  let exhausted = false;
  runtime.setInterruptHandler(() => {
    checks += 1;
    if (checks > INTERRUPT_BUDGET || Date.now() > deadline) exhausted = true;
    return exhausted;
  });
  const vm = runtime.newContext();
  try {
    const code = `${LOCKDOWN}${DECIMAL_PRELUDE}
const deepFreeze = (o) => { if (o && typeof o === 'object') { Object.values(o).forEach(deepFreeze); Object.freeze(o); } return o; };
const result = ${wrap(source)}(deepFreeze(JSON.parse(${JSON.stringify(JSON.stringify(input))})), dec);
JSON.stringify(result === undefined ? null : result);`;
    const evaluated = vm.evalCode(code, 'rule.js');
    if (evaluated.error) {
      const error = vm.dump(evaluated.error) as { name?: string; message?: string } | string;
      evaluated.error.dispose();
      if (exhausted) throw new RuleScriptError(rule, 'it used up its CPU budget (an endless loop?)');
      const message = typeof error === 'object' && error ? `${error.name ?? 'Error'}: ${error.message}` : String(error);
      throw new RuleScriptError(rule, message.includes('out of memory') ? 'it used up its memory' : message);
    }
    const text = vm.getString(evaluated.value);
    evaluated.value.dispose();
    try {
      return checkOutput(JSON.parse(text));
    } catch (error) {
      throw new RuleScriptError(rule, (error as Error).message);
    }
  } finally {
    disposeAll(vm, runtime);
  }
}
