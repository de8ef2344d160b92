// A credential revoked or rescoped must stop working as it was at once: the authenticators of this
// process forget what they remembered of it (authenticate.service.ts remembers a verified secret
// for a minute). The services that change credentials (src/credentials/) call `credentialChanged`
// after their flush.
interface Forgetting { forget(publicId: string): void }

const listeners = new Set<WeakRef<Forgetting>>();

/** An authenticator registers itself; it is dropped once collected. */
export function forgetOnChange(authenticator: Forgetting): void {
  listeners.add(new WeakRef(authenticator));
}

export function credentialChanged(publicId: string): void {
  for (const ref of listeners) {
    const listener = ref.deref();
    if (listener) listener.forget(publicId);
    else listeners.delete(ref);
  }
}
