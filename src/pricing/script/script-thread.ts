// The script thread: rule scripts run here, not on the thread that asks for them (run-rule-script.ts
// starts it, asks, and terminates it when a run passes its deadline). Each request comes on the
// port given at start; the answer goes back on it, then its id is stored in the shared state and
// the caller, blocked in Atomics.wait, is woken.
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Evaluation } from './evaluate-script.ts';
import type { SandboxLimits } from './sandbox.ts';

/** Slots of the shared state: READY is 1 once the sandbox is loaded (2: it failed to), ANSWERED the id of the last answer. */
export const READY = 0;
export const ANSWERED = 1;

export type ScriptRequest = { id: number } & (
  | { kind: 'run'; source: string; input: string | undefined; limits: SandboxLimits }
  | { kind: 'syntax'; source: string }
  | { kind: 'stats' }
);
export type ScriptAnswer = { id: number; answer: Evaluation | string | null | SandboxThreadStats };
export interface SandboxThreadStats { instancesLoaded: number; instancesRetired: number; memoryBytes: number }

if (workerData?.scriptThread) {
  const { port, state } = workerData.scriptThread as { port: MessagePort; state: Int32Array };
  try {
    // Loading the sandbox loads its QuickJS instance (a top-level await).
    const { checkSyntax, evaluateScript } = await import('./evaluate-script.ts');
    const { sandboxStats } = await import('./sandbox.ts');
    port.on('message', (request: ScriptRequest) => {
      let answer: ScriptAnswer['answer'];
      try {
        answer = request.kind === 'run' ? evaluateScript(request.source, request.input, request.limits)
          : request.kind === 'syntax' ? checkSyntax(request.source) : sandboxStats();
      } catch (error) {
        answer = { fault: String((error as Error)?.message), stackOverflow: error instanceof RangeError };
      }
      port.postMessage({ id: request.id, answer } satisfies ScriptAnswer);
      Atomics.store(state, ANSWERED, request.id);
      Atomics.notify(state, ANSWERED);
    });
    Atomics.store(state, READY, 1);
  } catch (error) {
    Atomics.store(state, READY, 2);
    throw error;
  } finally {
    Atomics.notify(state, READY);
  }
}
