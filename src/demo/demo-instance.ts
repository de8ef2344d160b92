import type { Orm } from '../platform/orm.ts';

/** Placeholder: the demo instance lands with the CLI. */
export async function ensureDemoInstance(_orm: Orm, _log: (line: string) => void): Promise<void> {}
