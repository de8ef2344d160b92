const PUBLIC_ID = /^[A-Za-z0-9._-]{3,64}$/;

/** What a credential's public id may look like: anything else cannot name a credential. */
export function isPublicId(value: string): boolean {
  return PUBLIC_ID.test(value);
}
