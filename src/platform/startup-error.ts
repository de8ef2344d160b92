/** A start-up failure the operator can fix: main prints its message as one line and exits 1. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
