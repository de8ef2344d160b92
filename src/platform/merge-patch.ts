/** JSON Merge Patch (RFC 7386): null removes a member, objects merge, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

/** A patch names only what changes: undefined = absent (keep), null = clear. */
export type Patch<T> = { [K in keyof T]?: T[K] | null };

/** Applies the present members of a patch; returns the names that changed. */
export function applyPatch<T extends object>(target: T, patch: Patch<T>): (keyof T)[] {
  const changed: (keyof T)[] = [];
  for (const key of Object.keys(patch) as (keyof T)[]) {
    const value = patch[key];
    if (value === undefined) continue;
    const current = target[key] as unknown;
    const same = current instanceof Date && value instanceof Date ? current.getTime() === value.getTime() : current === value;
    if (!same) {
      target[key] = value as T[keyof T];
      changed.push(key);
    }
  }
  return changed;
}
