// The deprecated single-field endpoints (interface spec "Deprecated single-field endpoints"):
// PUT <resource>/valid-until sets one field, DELETE clears it; both are a merge-update naming
// only that field, with an optional external_updated_at.
import * as yup from 'yup';
import { defineRoute, type RouteDef, type RouteInput } from './route.ts';
import type { Field } from './shape.ts';
import { timestamp } from '../../src/platform/input-schemas.ts';

export interface SingleField {
  /** Whether DELETE on the sub-path (set the field to null) exists too. */
  delete?: boolean;
  /** The field's value; an ISO 8601 timestamp unless said otherwise. */
  schema?: yup.Schema;
}

export interface SingleFieldRoutesOptions<T> {
  /** The resource path, e.g. `/msp-token-link/:id`. */
  path: string;
  tag: string;
  /** JSON member names, e.g. `{ valid_from: {}, valid_until: { delete: true } }`. */
  fields: Record<string, SingleField>;
  api?: 'admin' | 'app';
  /** The resource's representation (what the merge-update answers). */
  response: Field<T>;
  /** The resource's merge-update: `patch` is the body a POST on `path` naming only the field would carry. */
  update(input: RouteInput<Record<string, unknown>, unknown>, patch: Record<string, unknown>): Promise<T>;
}

/** Only the members the sub-path knows: unknown ones are reported, never passed on. */
function pick(body: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => Object.hasOwn(body, name)).map((name) => [name, body[name]]));
}

export function singleFieldRoutes<T>(options: SingleFieldRoutesOptions<T>): RouteDef[] {
  const routes: RouteDef[] = [];
  for (const [field, spec] of Object.entries(options.fields)) {
    const path = `${options.path}/${field.replaceAll('_', '-')}`;
    const common = { path, tag: options.tag, api: options.api, deprecated: true, response: options.response };
    const value = (spec.schema ?? timestamp().nullable()).defined(`\${path} is required`);
    routes.push(defineRoute({
      ...common, method: 'put',
      summary: `Set ${field} (deprecated: merge-update with only ${field})`,
      body: yup.object({ [field]: value, external_updated_at: timestamp().nullable() }),
      handler: (input) => options.update(input, pick(input.body, [field, 'external_updated_at'])),
    }));
    if (spec.delete) {
      routes.push(defineRoute({
        ...common, method: 'delete', bodyOptional: true,
        summary: `Clear ${field} (deprecated: merge-update with ${field} null)`,
        body: yup.object({ external_updated_at: timestamp().nullable() }),
        handler: (input) => options.update(input, { ...pick(input.body, ['external_updated_at']), [field]: null }),
      }));
    }
  }
  return routes;
}
