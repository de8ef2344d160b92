const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Sets an own member: `base.__proto__ = x` would replace the prototype instead. */
function setOwn(base: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(base, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * JSON Merge Patch (RFC 7386): null removes a member, objects merge, anything else replaces.
 * Member names are data: `constructor` or `__proto__` are members like any other.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const base: Record<string, unknown> = {};
  if (isObject(target)) for (const key of Object.keys(target)) setOwn(base, key, target[key]);
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) delete base[key];
    else setOwn(base, key, mergePatch(Object.hasOwn(base, key) ? base[key] : undefined, value));
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
