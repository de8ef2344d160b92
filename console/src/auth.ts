// The signed-in API credential: public id and secret, kept in sessionStorage only (gone with the
// browser tab's session), sent as HTTP Basic as the API expects.
export interface Credential {
  publicId: string;
  secret: string;
}

const KEY = 'svc.console.credential';

export function loadCredential(): Credential | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Credential;
    return typeof parsed.publicId === 'string' && typeof parsed.secret === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export function saveCredential(credential: Credential): void {
  sessionStorage.setItem(KEY, JSON.stringify(credential));
}

export function clearCredential(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(ADMIN_KEY);
}

export const ADMIN_KEY = 'svc.console.administration';

/** `Basic base64(publicId:secret)`, UTF-8 as the server decodes it. */
export function authorizationHeader(credential: Credential): string {
  const bytes = new TextEncoder().encode(`${credential.publicId}:${credential.secret}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
