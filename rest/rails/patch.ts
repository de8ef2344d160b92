// Merge-update and the deprecated replace-update share one mapping from JSON members to
// service patch fields. For PUT, every mapped member the body omits becomes null (reset).
export type FieldMapping = Record<string, string | { to: string; convert: (value: any) => unknown }>;

export function patchFrom(body: Record<string, unknown>, mapping: FieldMapping, mode: 'merge' | 'replace' = 'merge'): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [member, target] of Object.entries(mapping)) {
    const present = Object.hasOwn(body, member);
    if (!present && mode === 'merge') continue;
    const value = present ? body[member] : null;
    if (typeof target === 'string') patch[target] = value;
    else patch[target.to] = value === null ? null : target.convert(value);
  }
  return patch;
}

/** A member given under its name or its deprecated one: the name wins when the body holds it, null included (null clears). */
export function orDeprecated<T>(current: T | undefined, deprecated: T | undefined): T | undefined {
  return current !== undefined ? current : deprecated;
}
