// What makes a benchmark's rows its own in a database other runs use too (growth runs each
// benchmark twice on one database): administration ids, credentials, tokens and session ids carry
// it. Four letters and digits drawn by each process (BENCH_RUN_TAG sets one).
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export const RUN_TAG: string = process.env.BENCH_RUN_TAG
  ?? Array.from(randomBytes(4), (byte) => ALPHABET[byte % ALPHABET.length]).join('');

/** `base-<tag>`: an id of this run (an administration, a credential's public id). */
export const runId = (base: string): string => `${base}-${RUN_TAG}`;
