// The suite's watch for secrets (decisions.md "Events": secrets and their ciphertext never appear in
// events, answers or logs). Every secret a test sends (a `secret` member of a request body, a
// credential's secret) is registered; every answer, every line the process writes (the service's
// log, in-process), and at the end every stored event (`changes` and `data`) are scanned for them
// and for the sealed form (`v1:` + base64, src/webhooks/secret-box.ts). The app helper fails a
// test file whose answers, log or events held one.
import type pg from 'pg';

const secrets = new Set<string>();
const leaks: string[] = [];
export const CIPHERTEXT = /v1:[A-Za-z0-9+/]{40,}={0,2}/;

export function registerSecret(secret: unknown): void {
  if (typeof secret === 'string' && secret.length >= 8) secrets.add(secret);
}

/** Registers the `secret` members of a request body (at any depth). */
export function registerSecretsIn(body: unknown, depth = 0): void {
  if (!body || typeof body !== 'object' || depth > 4) return;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (/secret/i.test(key)) registerSecret(value);
    else registerSecretsIn(value, depth + 1);
  }
}

/** What in `text` is a registered secret or ciphertext (null: nothing). */
export function secretIn(text: string): string | null {
  if (CIPHERTEXT.test(text)) return 'ciphertext';
  for (const secret of secrets) if (text.includes(secret)) return `the secret ${secret.slice(0, 3)}…`;
  return null;
}

export function scan(where: string, text: string): void {
  const found = secretIn(text);
  if (found) leaks.push(`${where}: ${found}`);
}

let watching = 0;
let restore: (() => void) | null = null;

/** Scans what this process writes to stdout and stderr (the service's log when it runs in-process) while watched. */
export function watchOutput(): () => void {
  if (watching++ === 0) {
    const streams = [process.stdout, process.stderr];
    const originals = streams.map((stream) => stream.write);
    streams.forEach((stream, i) => {
      stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
        scan(i === 0 ? 'stdout' : 'stderr', typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
        return (originals[i] as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      } as typeof stream.write;
    });
    restore = () => streams.forEach((stream, i) => { stream.write = originals[i]; });
  }
  return () => { if (--watching === 0) restore?.(); };
}

/** Scans every stored event of a database. */
export async function scanEvents(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ id: string; text: string }>(`select id::text, coalesce(changes::text, '') || ' ' || coalesce(data::text, '') as text from svc_event`);
  for (const row of rows) scan(`event ${row.id}`, row.text);
}

/** The leaks found so far (and forgets them). */
export function takeLeaks(): string[] {
  return leaks.splice(0, leaks.length);
}
