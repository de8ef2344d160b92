// What runs inside the script thread (script-thread.ts): the program a rule script's run evaluates
// (the lockdown of the built-ins, the decimal helper, the script) and its evaluation in the sandbox
// (sandbox.ts, which owns the QuickJS instance). Nothing here checks a result: the caller does
// (run-rule-script.ts), on its own thread, and only ever sees plain data from here.
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten';
import { DECIMAL_PRELUDE } from './decimal-prelude.ts';
import { inSandbox, SandboxFault, type SandboxLimits } from './sandbox.ts';

// QuickJS's built-ins run without checking for an interrupt, so one call is bounded by its input
// alone. Array built-ins loop over an array-like's length (Array.prototype.indexOf.call({ length:
// 2 ** 40 }) ran for hours past the CPU budget); typed arrays likewise; string searches are naive,
// O(n·m) (since 2026-11-29, found by probing: one indexOf over a 4 MiB string would have run for
// an hour, on the thread that answers requests). Each is wrapped to refuse an input beyond a bound
// where its one call stays within milliseconds: 1,000,000 elements, 4,096 characters (a loop of the slowest search ends at the CPU backstop, about 1.2 s).
// A String.prototype method's receiver is made a string once, by the wrapper, which checks and
// passes that string: an object whose toString answers a long string (or a short one to the check
// and a long one after) is held the same (found by probing, 2026-11-29). What still gets past the
// wrappers (a length getter answering the check one length and the built-in another, BigInt
// conversions) is stopped by the thread's deadline (run-rule-script.ts).
const MAX_ARRAY_LENGTH = 1_000_000;
const MAX_STRING_LENGTH = 4_096;
// The checks use nothing a script can replace later (a prototype's method, Function.prototype.apply):
// Reflect.apply is taken now, and the arguments are walked by index. The wrappers are strict functions,
// as the built-ins are: a receiver reaches the built-in as it came (a string stays a string, null
// stays null). A wrapper's receiver function, if any, makes what its check and the built-in take:
// every String.prototype method's receiver made a string once (ToString, as a template literal does;
// not for toString and valueOf, which take only a string or a String object), the first argument of
// the RegExp methods that make it a string. (No comments inside: the lockdown is compiled every run.)
const LOCKDOWN = `
globalThis.Date = undefined;
Math.random = () => { throw new Error('Math.random is not available in rule scripts'); };
const apply = Reflect.apply;
const bounded = (() => {
  'use strict';
  return (proto, check, receiver) => {
    for (const key of Reflect.ownKeys(proto)) {
      const native = Object.getOwnPropertyDescriptor(proto, key).value;
      if (typeof native !== 'function' || key === 'constructor') continue;
      const name = typeof key === 'symbol' ? key.description : key;
      const made = receiver?.(key);
      Object.defineProperty(proto, key, { writable: true, configurable: true, value: { [name](...args) {
        const self = made ? made(this, args) : this;
        check(self, args);
        return apply(native, self, args);
      } }[name] });
    }
  };
})();
const elements = (self) => {
  if (self != null && Number(self.length) > ${MAX_ARRAY_LENGTH}) throw new RangeError('arrays in rule scripts have at most ${MAX_ARRAY_LENGTH} elements');
};
const tooLong = (value) => (typeof value === 'string' || value instanceof String) && value.length > ${MAX_STRING_LENGTH};
const characters = (self, args) => {
  let long = tooLong(self);
  for (let i = 0; i < args.length; i++) long = long || tooLong(args[i]);
  if (long) throw new RangeError('strings that rule scripts search or change have at most ${MAX_STRING_LENGTH} characters');
};
const toText = (self) => (self == null || typeof self === 'string' ? self : \`\${self}\`);
const subject = (self, args) => { if (typeof args[0] !== 'string') args[0] = \`\${args[0]}\`; return self; };
const SUBJECT = ['exec', 'test', Symbol.match, Symbol.matchAll, Symbol.replace, Symbol.search, Symbol.split];
bounded(Array.prototype, elements);
bounded(Object.getPrototypeOf(Uint8Array.prototype), elements);
bounded(String.prototype, characters, (key) => (key === 'toString' || key === 'valueOf' ? null : toText));
bounded(RegExp.prototype, characters, (key) => (SUBJECT.includes(key) ? subject : null));
`;

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

export const STACK_MESSAGE = 'it ran out of stack (nested or recursing too deeply)';

/**
 * The program a run evaluates: the lockdown, the decimal helper, the script as a function called
 * with the input (JSON text, made by the caller); its last value is the result as JSON text. The
 * syntax check compiles this same program, so a script that closes its function early (`}); ...
 * (function () {`) fails when saved, not at every pricing.
 */
function program(source: string, inputJson: string | undefined): string {
  return `${LOCKDOWN}${DECIMAL_PRELUDE}
const deepFreeze = (o) => { if (o && typeof o === 'object') { Object.values(o).forEach(deepFreeze); Object.freeze(o); } return o; };
const result = ${wrap(source)}(deepFreeze(JSON.parse(${JSON.stringify(inputJson)})), dec);
// A promise (an async script), a Map or a class instance would read as {}: what it meant would be lost.
if (result != null && ![Object.prototype, null].includes(Object.getPrototypeOf(result))) throw new TypeError('the script must return an object with annotations and/or subtotals, a plain one, not ' + (result?.constructor?.name ?? typeof result));
JSON.stringify(result === undefined ? null : result);`;
}

/** A syntax error in the script, or null. */
export function checkSyntax(source: string): string | null {
  try {
    return inSandbox({ interruptChecks: 3_000, cpuMs: 1_000 }, ({ vm, scope }) => {
      const result = vm.evalCode(program(source, 'null'), 'rule.js', { compileOnly: true });
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

/**
 * A run's outcome: the result as JSON text, the script's failure, or a fault of the sandbox (of
 * the host's stack running out inside QuickJS, or another).
 */
export type Evaluation = { text: string } | { failure: string } | { fault: string; stackOverflow: boolean };

/** Runs `source` with the input given as JSON text (`undefined` for none); never throws. */
export function evaluateScript(source: string, inputJson: string | undefined, limits: SandboxLimits): Evaluation {
  try {
    return inSandbox(limits, ({ vm, scope, exhausted, outOfMemory }) => {
      const evaluated = vm.evalCode(program(source, inputJson), 'rule.js');
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
    const stackOverflow = (error instanceof SandboxFault && error.stackOverflow) || error instanceof RangeError
      || String((error as Error)?.message).includes('Stack overflow');
    return { fault: String((error as Error)?.message), stackOverflow };
  }
}
