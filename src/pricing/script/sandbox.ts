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
//
// Memory: this build's QuickJS cannot add up its allocations (emscripten reports no usable size,
// quickjs-emscripten issue #271), so its memory limit only bounds a single allocation. The
// instance's WebAssembly memory therefore gets a maximum: a memory hog gets QuickJS's "out of
// memory" error, and the memory, which WebAssembly never gives back, cannot grow past it.
import {
  newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC, Scope, type QuickJSContext, type QuickJSWASMModule,
} from 'quickjs-emscripten';

const threadCpuMs = (): number => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

export interface SandboxLimits {
  /** QuickJS checks for an interrupt about every 10,000 branches or calls. */
  interruptChecks: number;
  /**
   * A backstop for time spent between checks, in CPU time of this thread: a busy machine (other
   * processes) slows a script down without using up its budget.
   */
  cpuMs: number;
}

export interface Sandbox {
  vm: QuickJSContext;
  /** Owns every handle of the run (disposed after it, a handle disposed already is skipped). */
  scope: Scope;
  /** Whether the CPU budget ran out. */
  exhausted(): boolean;
  /** Whether the instance's memory was full (it could not grow) during the run. */
  outOfMemory(): boolean;
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
const PAGE_BYTES = 65_536;
/** The variant's initial memory (16 MiB: static data, stack, the start of the heap). */
const BASE_PAGES = 256;
const MAX_PAGES = BASE_PAGES + MEMORY_BYTES / PAGE_BYTES;
// QuickJS measures the instance's stack; the same frames take several times as much of V8's
// (about 1 MB). At 32 KiB (some 180 frames of script recursion) QuickJS's "stack overflow" comes
// first for recursion and JSON nesting with room to spare (V8's came first from about 96 KiB).
const STACK_BYTES = 32 * 1024;

const variant = newVariant(RELEASE_SYNC, {
  wasmMemory: async () => new WebAssembly.Memory({ initial: BASE_PAGES, maximum: MAX_PAGES }),
});
// When the memory cannot grow, QuickJS's allocation fails: noted for the error message.
const refusedGrowth = new WeakMap<QuickJSWASMModule, { count: number }>();
async function load(): Promise<QuickJSWASMModule> {
  const module = await newQuickJSWASMModuleFromVariant(variant);
  const memory = module.getWasmMemory();
  const grow = memory.grow.bind(memory);
  const refused = { count: 0 };
  memory.grow = (delta: number) => {
    try {
      return grow(delta);
    } catch (error) {
      refused.count += 1;
      throw error;
    }
  };
  refusedGrowth.set(module, refused);
  return module;
}

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
    const deadline = threadCpuMs() + limits.cpuMs;
    runtime.setInterruptHandler(() => {
      checks += 1;
      if (checks > limits.interruptChecks || threadCpuMs() > deadline) exhausted = true;
      return exhausted;
    });
    const vm = scope.manage(runtime.newContext());
    const refused = refusedGrowth.get(module)!;
    const refusedBefore = refused.count;
    result = run({ vm, scope, exhausted: () => exhausted, outOfMemory: () => refused.count > refusedBefore });
  } catch (error) {
    retire(module);
    const message = error instanceof Error ? error.message : String(error);
    // No regular expression here: compiling one needs stack, which may be what ran out.
    throw new SandboxFault(message, error instanceof RangeError && message.toLowerCase().includes('call stack'));
  }
  try {
    scope.dispose();
  } catch (error) {
    retire(module);
    throw new SandboxFault(`freeing the runtime failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return result;
}
