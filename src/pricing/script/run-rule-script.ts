// Rule scripts run in QuickJS (WebAssembly): no I/O, no host objects, no clock, no randomness;
// a CPU budget counted in interrupt checks (deterministic, with a backstop in the thread's CPU time), a memory
// and a stack limit, a fresh runtime per run. The sandbox (sandbox.ts) owns the instance, in a thread
// of its own (script-thread.ts, evaluate-script.ts); this module asks it, synchronously, and checks
// what a script answers.
//
// The thread is the backstop of the budget: QuickJS's built-ins run without an interrupt check, and
// the wrappers that bound their inputs (evaluate-script.ts) were passed three ways by probing
// (2026-11-29: a length getter, an object receiver, BigInt conversions in a sort), each holding the
// thread for seconds to hours. A run that has not answered by its deadline has its thread
// terminated (V8 stops WebAssembly too) and fails; a fresh thread takes over for the next run.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { compareDecimal, isDecimalText } from '../../money/decimal.ts';
import { DomainError } from '../../platform/errors.ts';
import { logger } from '../../platform/log.ts';
import { storableText, TEXT_CONTROL } from '../../platform/input-limits.ts';
import type { Evaluation } from './evaluate-script.ts';
import type { SandboxLimits } from './sandbox.ts';
import { ANSWERED, READY, type SandboxThreadStats, type ScriptAnswer, type ScriptRequest } from './script-thread.ts';

/** A subtotal's component name a script may answer (a custom variable of a reimbursement plan becomes one). */
export const COMPONENT_NAME = /^[a-z][a-z0-9_]{0,49}$/;

export const MAX_SCRIPT_LENGTH = 10_000;
const LIMITS: SandboxLimits = { interruptChecks: 3_000, cpuMs: 1_000 };
/** The thread's own stack message (evaluate-script.ts), repeated: that module is the thread's. */
const STACK_MESSAGE = 'it ran out of stack (nested or recursing too deeply)';

/**
 * How long a run may take, wall-clock, before its thread is terminated: twice the CPU backstop (1 s
 * of the thread's CPU time), so that a script the budget stops, on a busy machine, is stopped by the
 * budget and not by this; short enough that the thread that asked (the request's, or the processing
 * thread that serves every administration) is held at most this long by what the budget misses.
 */
export const SCRIPT_DEADLINE_MS = 2_000;
/**
 * How long a thread may take to start (load its modules and its QuickJS instance, about 0.1 s on an
 * idle machine): the first run of a thread waits for it, outside its deadline.
 */
const START_TIMEOUT_MS = 30_000;
/** The thread's V8 heap holds a run's source, input and answer only (QuickJS's memory is WebAssembly memory, outside it). */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 } as const;

interface ScriptThread { worker: Worker; port: MessagePort; state: Int32Array; exited: boolean }

let thread: ScriptThread | null = null;
let lastId = 0;
const threadCounts = { started: 0, terminated: 0 };

/** A thread that did not answer: it was terminated (or had not started). */
class ThreadFailure extends Error {}

function startThread(): ScriptThread {
  const { port1, port2 } = new MessageChannel();
  // A port and a state of its own: a thread terminated while it answered cannot answer a later run.
  const state = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const worker = new Worker(new URL('./script-thread.ts', import.meta.url), {
    workerData: { scriptThread: { port: port2, state } }, transferList: [port2], resourceLimits: RESOURCE_LIMITS,
  });
  // Neither keeps a process (or the processing thread) from ending: it is only asked synchronously.
  worker.unref();
  port1.unref();
  const started: ScriptThread = { worker, port: port1, state, exited: false };
  worker.on('error', (error) => logger().error({ err: error }, 'rule scripts: the script thread failed'));
  worker.on('exit', () => { started.exited = true; });
  threadCounts.started += 1;
  return started;
}

function terminate(stopped: ScriptThread): void {
  if (thread === stopped) thread = null;
  threadCounts.terminated += 1;
  stopped.port.close();
  stopped.worker.terminate().catch(() => {}); // stops it (WebAssembly included) whatever it runs; done on its own
}

/** Terminates the script thread, if there is one (shutdown; the thread does not keep a process alive). */
export async function stopScriptThread(): Promise<void> {
  const stopping = thread;
  if (!stopping) return;
  thread = null;
  threadCounts.terminated += 1;
  stopping.port.close();
  await stopping.worker.terminate();
}

type Request = ScriptRequest extends infer R ? R extends ScriptRequest ? Omit<R, 'id'> : never : never;

/** Asks the script thread and waits for its answer, at most SCRIPT_DEADLINE_MS once the thread runs. */
function ask(request: Request): ScriptAnswer['answer'] {
  if (!thread || thread.exited) thread = startThread();
  const asked = thread;
  if (Atomics.load(asked.state, READY) === 0) Atomics.wait(asked.state, READY, 0, START_TIMEOUT_MS);
  const ready = Atomics.load(asked.state, READY);
  if (ready !== 1) {
    terminate(asked);
    throw new ThreadFailure(ready === 0 ? `it did not start within ${START_TIMEOUT_MS / 1000} s` : 'it could not start');
  }
  lastId = lastId >= 0x7fff_ffff ? 1 : lastId + 1;
  const id = lastId;
  asked.port.postMessage({ ...request, id } as ScriptRequest);
  const deadline = performance.now() + SCRIPT_DEADLINE_MS;
  for (let answered = Atomics.load(asked.state, ANSWERED); answered !== id; answered = Atomics.load(asked.state, ANSWERED)) {
    const left = deadline - performance.now();
    if (left <= 0) {
      terminate(asked);
      // The next run's thread starts now, beside this one's caller, rather than at that run.
      thread = startThread();
      throw new ThreadFailure(`it ran past its time limit of ${SCRIPT_DEADLINE_MS / 1000} s (a built-in working on a huge input?)`);
    }
    Atomics.wait(asked.state, ANSWERED, answered, left);
  }
  // Posted before its id was stored: it is there (an older answer, of a run given up, is skipped).
  for (let message = receiveMessageOnPort(asked.port); message; message = receiveMessageOnPort(asked.port)) {
    const answer = message.message as ScriptAnswer;
    if (answer.id === id) return answer.answer;
  }
  terminate(asked);
  throw new ThreadFailure('it answered nothing');
}

/**
 * The QuickJS instances the script thread loaded and retired, and its current instance's WebAssembly
 * memory; the script threads started and terminated (a run past its deadline) in this thread.
 */
export function sandboxStats(): SandboxThreadStats & { threadsStarted: number; threadsTerminated: number } {
  const stats = ask({ kind: 'stats' }) as SandboxThreadStats;
  return { ...stats, threadsStarted: threadCounts.started, threadsTerminated: threadCounts.terminated };
}

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

/** A syntax error in the script, or null. */
export function scriptSyntaxError(source: string): string | null {
  try {
    return ask({ kind: 'syntax', source }) as string | null;
  } catch (error) {
    if (!(error instanceof ThreadFailure)) throw error;
    return `it could not be checked (${error.message}); try again`;
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
  let outcome: Evaluation;
  try {
    // As JSON text: what the script sees is what JSON makes of the input (dates by toJSON), not a structured clone.
    outcome = ask({ kind: 'run', source, input: JSON.stringify(input), limits: { ...LIMITS, ...limits } }) as Evaluation;
  } catch (error) {
    if (!(error instanceof ThreadFailure)) throw error;
    throw new RuleScriptError(rule, error.message);
  }
  if ('fault' in outcome) {
    if (outcome.stackOverflow) throw new RuleScriptError(rule, STACK_MESSAGE);
    throw new RuleScriptError(rule, `the sandbox failed (${outcome.fault}); the session can be retried`);
  }
  if ('failure' in outcome) throw new RuleScriptError(rule, outcome.failure);
  try {
    return checkOutput(JSON.parse(outcome.text));
  } catch (error) {
    throw new RuleScriptError(rule, (error as Error).message);
  }
}
