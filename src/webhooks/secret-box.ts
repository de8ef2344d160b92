// Webhook secrets at rest: AES-256-GCM under the instance key, SVC_SECRET_KEY (any string; its
// SHA-256 is the key) or, without it, a random key kept in <data dir>/secret.key (created 0600 on
// first use, never in the database), so a database dump alone does not reveal the secrets.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

let key: Buffer | null = null;

function instanceKey(): Buffer {
  if (key) return key;
  const configured = process.env.SVC_SECRET_KEY;
  if (configured) return (key = createHash('sha256').update(configured).digest());
  const file = join(resolve(process.env.SVC_DATA_DIR || '.data'), 'secret.key');
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (key = createHash('sha256').update(readFileSync(file, 'utf8').trim()).digest());
}

export function sealSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', instanceKey(), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}

export function openSecret(stored: string): string {
  const raw = Buffer.from(stored.slice(3), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', instanceKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
