import { decodeGlobalID } from '@pothos/plugin-relay';
import { EXT_REF_PREFIX, parseRef, type ResourceRef } from '../src/platform/resource-ref.ts';

function localId(raw: string, typename: string): string | null {
  try {
    const decoded = decodeGlobalID(raw);
    return decoded.typename === typename ? decoded.id : null;
  } catch {
    return null;
  }
}

/**
 * An id argument names a record by its global ID, by its REST id, or (where REST allows it)
 * by `ext_ref.<external_reference>`.
 */
export function refFromArg(raw: string, typename: string, allowExternalReference = true): ResourceRef {
  if (allowExternalReference && raw.startsWith(EXT_REF_PREFIX)) return parseRef(raw, true);
  return { id: localId(raw, typename) ?? raw };
}

/** An administration argument: its global ID or its slug. */
export function administrationKey(raw: string): string {
  return localId(raw, 'Administration') ?? raw;
}

/** An id argument of a record REST names by id only: its global ID or its REST id. */
export function idArg(raw: string | number, typename: string): string {
  return localId(String(raw), typename) ?? String(raw);
}
