// OCPI 2.2.1 `Authorization: Token <base64(token)>`. Peers of 2.1.1 habits send the token as is:
// a value that is not the base64 of printable text is taken literally.
import { randomBytes } from 'node:crypto';

export function authorizationHeader(token: string): string {
  return `Token ${Buffer.from(token, 'utf8').toString('base64')}`;
}

export function tokenOf(header: string | undefined): string | null {
  const match = /^Token\s+(\S+)$/i.exec(header ?? '');
  if (!match) return null;
  const value = match[1];
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    if (/^[\x21-\x7e]+$/.test(decoded) && Buffer.from(decoded, 'utf8').toString('base64') === value) return decoded;
  }
  return value;
}

/** A fresh credentials token (token A, B or C): 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}
