// The QuickJS WebAssembly instance that runs rule scripts, and the lifetimes inside it.
//
// Each run gets a fresh runtime and context. Every handle a run makes is managed by the run's
// Scope, which disposes them (then the context, then the runtime) on every path, failures
// included: QuickJS's JS_FreeRuntime asserts that no object is left, and a failed assertion
// aborts the whole instance ("Aborted(Assertion failed: list_empty(&rt->gc_obj_list) ...").
//
// A host exception thrown while QuickJS runs inside the instance unwinds through QuickJS without
// its clean-up: objects stay referenced from frames that are gone, and the instance's stack
// pointer stays where the exception left it. The one seen in practice is V8's own "Maximum call
// stack size exceeded": WebAssembly frames also live on V8's stack, and for deeply nested source
// QuickJS's parser exhausts it before QuickJS's stack check (which measures the instance's own
// stack) notices. Such an instance is never called again, not even to free that runtime (the
// failed assertion above): it is retired whole and a spare, loaded ahead of time, takes over.
import { newQuickJSWASMModule, Scope, type QuickJSContext, type QuickJSWASMModule } from 'quickjs-emscripten';

export interface SandboxLimits {
  /** QuickJS checks for an interrupt about every 10,000 branches or calls. */
  interruptChecks: number;
  /** A backstop for time spent between checks. */
  wallClockMs: number;
}

export interface Sandbox {
  vm: QuickJSContext;
  /** Owns every handle of the run (disposed after it, a handle disposed already is skipped). */
  scope: Scope;
  /** Whether the CPU budget ran out. */
  exhausted(): boolean;
}

/** The instance failed (and was retired), or none is loaded yet. */
export class SandboxFault extends Error {
  /** The host's stack ran out inside QuickJS (deeply nested or recursing script). */
  readonly stackOverflow: boolean;

  constructor(message: string, stackOverflow = false) {
    super(message);
    this.name = 'SandboxFault';
    this.stackOverflow = stackOverflow;
  }
}

const MEMORY_BYTES = 16 * 1024 * 1024;
// QuickJS measures the instance's stack; the same frames take several times as much of V8's
// (about 1 MB). At 32 KiB (some 180 frames of script recursion) QuickJS's "stack overflow" comes
// first for recursion and JSON nesting with room to spare (V8's came first from about 96 KiB).
const STACK_BYTES = 32 * 1024;

const load = () => newQuickJSWASMModule();

let current: QuickJSWASMModule | null = await load();
let spare: QuickJSWASMModule | null = null;
let loading = false;
const counts = { loaded: 1, retired: 0 };

function replenish(): void {
  if (loading || spare) return;
  loading = true;
  load().then((module) => {
    loading = false;
    counts.loaded += 1;
    if (current) spare = module;
    else {
      current = module;
      replenish();
    }
  }, () => {
    loading = false; // tried again on the next run
  });
}
replenish();

function retire(module: QuickJSWASMModule): void {
  if (module !== current) return;
  counts.retired += 1;
  current = spare;
  spare = null;
  replenish();
}

/** Instances loaded and retired so far, and the WebAssembly memory of the current one. */
export function sandboxStats(): { instancesLoaded: number; instancesRetired: number; memoryBytes: number } {
  return { instancesLoaded: counts.loaded, instancesRetired: counts.retired, memoryBytes: current?.getWasmMemory().buffer.byteLength ?? 0 };
}

/**
 * Runs `run` in a fresh runtime and context and frees them and every handle in `scope`. `run`
 * returns its outcome; anything it throws is taken for a failed instance: a SandboxFault.
 */
export function inSandbox<T>(limits: SandboxLimits, run: (sandbox: Sandbox) => T): T {
  const module = current;
  if (!module) {
    replenish();
    throw new SandboxFault('the sandbox is being restarted');
  }
  const scope = new Scope();
  let result: T;
  try {
    const runtime = scope.manage(module.newRuntime());
    runtime.setMemoryLimit(MEMORY_BYTES);
    runtime.setMaxStackSize(STACK_BYTES);
    let checks = 0;
    let exhausted = false;
    const deadline = Date.now() + limits.wallClockMs;
    runtime.setInterruptHandler(() => {
      checks += 1;
      if (checks > limits.interruptChecks || Date.now() > deadline) exhausted = true;
      return exhausted;
    });
    const vm = scope.manage(runtime.newContext());
    result = run({ vm, scope, exhausted: () => exhausted });
  } catch (error) {
    retire(module);
    const message = error instanceof Error ? error.message : String(error);
    throw new SandboxFault(message, error instanceof RangeError && /call stack/i.test(message));
  }
  try {
    scope.dispose();
  } catch (error) {
    retire(module);
    throw new SandboxFault(`freeing the runtime failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return result;
}
