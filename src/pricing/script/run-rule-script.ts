// Rule scripts run in QuickJS (WebAssembly): no I/O, no host objects, no clock, no randomness;
// a CPU budget counted in interrupt checks (deterministic, with a backstop in the thread's CPU time), a memory
// and a stack limit, a fresh runtime per run. The sandbox (sandbox.ts) owns the instance.
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { compareDecimal, isDecimalText } from '../../money/decimal.ts';
import { DomainError } from '../../platform/errors.ts';
import { DECIMAL_PRELUDE } from './decimal-prelude.ts';
import { storableText, TEXT_CONTROL } from '../../platform/input-limits.ts';
import { inSandbox, SandboxFault, type SandboxLimits } from './sandbox.ts';

/** A subtotal's component name a script may answer (a custom variable of a reimbursement plan becomes one). */
export const COMPONENT_NAME = /^[a-z][a-z0-9_]{0,49}$/;

export { sandboxStats } from './sandbox.ts';

export const MAX_SCRIPT_LENGTH = 10_000;
const LIMITS: SandboxLimits = { interruptChecks: 3_000, cpuMs: 1_000 };

// QuickJS's built-ins run without checking for an interrupt, so one call is bounded by its input
// alone. Array built-ins loop over an array-like's length (Array.prototype.indexOf.call({ length:
// 2 ** 40 }) ran for hours past the CPU budget); typed arrays likewise; string searches are naive,
// O(n·m) (since 2026-11-29, found by probing: one indexOf over a 4 MiB string would have run for
// an hour, on the thread that answers requests). Each is wrapped to refuse an input beyond a bound
// where its one call stays within milliseconds: 1,000,000 elements, 4,096 characters (a loop of the slowest search ends at the CPU backstop, about 1.2 s).
const MAX_ARRAY_LENGTH = 1_000_000;
const MAX_STRING_LENGTH = 4_096;
const LOCKDOWN = `
globalThis.Date = undefined;
Math.random = () => { throw new Error('Math.random is not available in rule scripts'); };
// The checks use nothing a script can replace later (a prototype's method, Function.prototype.apply):
// Reflect.apply is taken now, and the arguments are walked by index.
const apply = Reflect.apply;
const bounded = (proto, check) => {
  for (const key of Reflect.ownKeys(proto)) {
    const native = Object.getOwnPropertyDescriptor(proto, key).value;
    if (typeof native !== 'function' || key === 'constructor') continue;
    const name = typeof key === 'symbol' ? key.description : key;
    Object.defineProperty(proto, key, { writable: true, configurable: true, value: { [name](...args) {
      check(this, args);
      return apply(native, this, args);
    } }[name] });
  }
};
const elements = (self) => {
  if (self != null && Number(self.length) > ${MAX_ARRAY_LENGTH}) throw new RangeError('arrays in rule scripts have at most ${MAX_ARRAY_LENGTH} elements');
};
const tooLong = (value) => (typeof value === 'string' || value instanceof String) && value.length > ${MAX_STRING_LENGTH};
const characters = (self, args) => {
  let long = tooLong(self);
  for (let i = 0; i < args.length; i++) long = long || tooLong(args[i]);
  if (long) throw new RangeError('strings that rule scripts search or change have at most ${MAX_STRING_LENGTH} characters');
};
bounded(Array.prototype, elements);
bounded(Object.getPrototypeOf(Uint8Array.prototype), elements);
bounded(String.prototype, characters);
bounded(RegExp.prototype, characters);
`;

export interface ScriptSubtotal { component: string; label: string; amount_excl_vat: string }
export interface ScriptOutput { annotations: Record<string, string>; subtotals: ScriptSubtotal[] }

export class RuleScriptError extends DomainError {
  constructor(rule: string, message: string) {
    // What a script throws is its own text: stored with the drop-out, it must be storable and bounded.
    super('rule_script_failed', `the script of rule "${rule}" failed: ${storableText(message, 1000)}`);
  }
}

/** A name or text a script returns, stored with the pricing result: no control characters (tab and line breaks aside) or lone surrogates. */
const storable = (text: string) => text.isWellFormed() && !TEXT_CONTROL.test(text);

/** At most 255 characters; never cut inside a surrogate pair (the half left was refused as a lone surrogate). */
function cutLabel(label: string): string {
  const cut = label.slice(0, 255);
  return /[\uD800-\uDBFF]$/.test(cut) && label.length > 255 ? cut.slice(0, -1) : cut;
}

/** A line a script adds is at most this much, either way (20 of them fit a billing item's 14 integer digits). */
const MAX_LINE_AMOUNT = '1000000';

/**
 * The annotation the service writes on a pricing result (session-processing/roaming-costs.ts): a
 * script's annotation of that name would pass for the service's (found by probing, 2026-11-29).
 */
export const ROAMING_AMOUNT_DIFFERENCE = 'roaming_amount_difference';
const SERVICE_ANNOTATIONS = new Set([ROAMING_AMOUNT_DIFFERENCE]);

/** At most this many annotations, with names of at most this many characters. */
const MAX_ANNOTATIONS = 50;
const MAX_ANNOTATION_NAME = 100;

function wrap(source: string): string {
  return `(function (input, dec) {\n"use strict";\n${source}\n})`;
}

/** What a thrown value says, as "Name: message" for errors (getters it reads run within the budget). */
function describe(vm: QuickJSContext, error: QuickJSHandle): string {
  // dump() disposes a promise handle itself (the run's scope skips a handle already disposed).
  const dumped = vm.dump(error) as unknown;
  if (typeof dumped === 'object' && dumped !== null && typeof (dumped as { message?: unknown }).message === 'string') {
    const { name, message } = dumped as { name?: unknown; message: string };
    return `${typeof name === 'string' ? name : 'Error'}: ${message}`;
  }
  if (typeof dumped === 'string') return dumped;
  try {
    return JSON.stringify(dumped) ?? String(dumped);
  } catch {
    return String(dumped); // a BigInt
  }
}

const STACK_MESSAGE = 'it ran out of stack (nested or recursing too deeply)';

/**
 * The program a run evaluates: the lockdown, the decimal helper, the script as a function called
 * with the input; its last value is the result as JSON text. The syntax check compiles this same
 * program, so a script that closes its function early (`}); ... (function () {`) fails when saved,
 * not at every pricing.
 */
function program(source: string, input: unknown): string {
  return `${LOCKDOWN}${DECIMAL_PRELUDE}
const deepFreeze = (o) => { if (o && typeof o === 'object') { Object.values(o).forEach(deepFreeze); Object.freeze(o); } return o; };
const result = ${wrap(source)}(deepFreeze(JSON.parse(${JSON.stringify(JSON.stringify(input))})), dec);
// A promise (an async script), a Map or a class instance would read as {}: what it meant would be lost.
if (result != null && ![Object.prototype, null].includes(Object.getPrototypeOf(result))) throw new TypeError('the script must return an object with annotations and/or subtotals, a plain one, not ' + (result?.constructor?.name ?? typeof result));
JSON.stringify(result === undefined ? null : result);`;
}

/** A syntax error in the script, or null. */
export function scriptSyntaxError(source: string): string | null {
  try {
    return inSandbox(LIMITS, ({ vm, scope }) => {
      const result = vm.evalCode(program(source, null), 'rule.js', { compileOnly: true });
      if (result.error) return describe(vm, scope.manage(result.error)).replace(/^SyntaxError: /, '');
      scope.manage(result.value);
      return null;
    });
  } catch (error) {
    if (!(error instanceof SandboxFault)) throw error;
    // Deeply nested source can exhaust the host's stack in QuickJS's parser.
    return error.stackOverflow ? 'it is nested too deeply' : `it could not be checked (${error.message}); try again`;
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
  const entries = Object.entries(annotations as Record<string, string>);
  if (entries.length > MAX_ANNOTATIONS || entries.some(([name]) => name.length === 0 || name.length > MAX_ANNOTATION_NAME)) {
    throw new Error(`annotations are at most ${MAX_ANNOTATIONS}, named by 1 to ${MAX_ANNOTATION_NAME} characters`);
  }
  const reserved = entries.find(([name]) => SERVICE_ANNOTATIONS.has(name));
  if (reserved) throw new Error(`the annotation ${reserved[0]} is the service's own`);
  if (entries.some(([name, value]) => !storable(name) || !storable(value))) {
    throw new Error('annotations must not hold control characters (other than tab and line breaks) or lone surrogates');
  }
  if (!Array.isArray(subtotals) || subtotals.length > 20) throw new Error('subtotals must be a list of at most 20 items');
  const checked = subtotals.map((s: Record<string, unknown>, i) => {
    if (typeof s !== 'object' || s === null) throw new Error(`subtotals[${i}] must be an object`);
    if (typeof s.component !== 'string' || !COMPONENT_NAME.test(s.component)) throw new Error(`subtotals[${i}].component must be a name like cpo_markup`);
    if (typeof s.amount_excl_vat !== 'string' || !isDecimalText(s.amount_excl_vat)) {
      throw new Error(`subtotals[${i}].amount_excl_vat must be a decimal string such as "1.25" (at most 6 decimals), not ${JSON.stringify(s.amount_excl_vat)}`);
    }
    // As an OCPI tariff's prices: a session's lines must fit what its items and totals keep.
    if (compareDecimal(s.amount_excl_vat.replace(/^-/, ''), MAX_LINE_AMOUNT) > 0) {
      throw new Error(`subtotals[${i}].amount_excl_vat must be at most ${MAX_LINE_AMOUNT} either way, not ${s.amount_excl_vat}`);
    }
    const label = typeof s.label === 'string' && s.label.length > 0 ? cutLabel(s.label) : s.component;
    if (!storable(label)) throw new Error(`subtotals[${i}].label must not hold control characters (other than tab and line breaks) or lone surrogates`);
    return { component: s.component, label, amount_excl_vat: s.amount_excl_vat };
  });
  return { annotations: annotations as Record<string, string>, subtotals: checked };
}

/**
 * Runs the script of `rule` with a frozen copy of `input`; every failure is a RuleScriptError.
 * `limits` narrows the CPU budget (tests).
 */
export function runRuleScript(rule: string, source: string, input: unknown, limits: Partial<SandboxLimits> = {}): ScriptOutput {
  let outcome: { text: string } | { failure: string };
  try {
    outcome = inSandbox({ ...LIMITS, ...limits }, ({ vm, scope, exhausted, outOfMemory }) => {
      const evaluated = vm.evalCode(program(source, input), 'rule.js');
      if (evaluated.error) {
        const message = describe(vm, scope.manage(evaluated.error));
        if (exhausted()) return { failure: 'it used up its CPU budget (an endless loop?)' };
        // Out of memory, QuickJS may have had no room for its error object and throw null.
        if (outOfMemory() || message.includes('out of memory')) return { failure: 'it used up its memory' };
        if (message === 'InternalError: stack overflow') return { failure: STACK_MESSAGE };
        return { failure: message };
      }
      const value = scope.manage(evaluated.value);
      if (vm.typeof(value) !== 'string') return { failure: 'the script must return an object with annotations and/or subtotals' };
      return { text: vm.getString(value) };
    });
  } catch (error) {
    // The host's stack ran out inside QuickJS (or while the sandbox handled that: whatever then failed, failed for want of stack).
    const hostStack = (error instanceof SandboxFault && error.stackOverflow) || error instanceof RangeError
      || String((error as Error)?.message).includes('Stack overflow');
    if (hostStack) throw new RuleScriptError(rule, STACK_MESSAGE);
    throw new RuleScriptError(rule, `the sandbox failed (${(error as Error).message}); the session can be retried`);
  }
  if ('failure' in outcome) throw new RuleScriptError(rule, outcome.failure);
  try {
    return checkOutput(JSON.parse(outcome.text));
  } catch (error) {
    throw new RuleScriptError(rule, (error as Error).message);
  }
}
