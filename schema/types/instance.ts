// This instance: its name, product version and the roaming calculation switch; the same service
// as REST GET and POST /instance (only a credential without an administration limit may change it, like the roaming setup).
import * as yup from 'yup';
import { instanceOverview, type InstanceOverview } from '../../src/parties/instance.queries.ts';
import { updateInstanceSettings, type InstanceFields } from '../../src/parties/update-instance-settings.service.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import type { Patch } from '../../src/platform/merge-patch.ts';
import { builder } from '../builder.ts';
import { mutate } from '../mutation.ts';

const Instance = builder.objectRef<InstanceOverview>('Instance').implement({
  description: 'This instance (REST: GET /instance).',
  fields: (t) => ({
    name: t.exposeString('name'),
    productVersion: t.exposeString('productVersion'),
    roamingEnabled: t.exposeBoolean('roamingEnabled', { description: 'Whether sessions of roaming partners get their roaming cost calculated.' }),
  }),
});

const InstanceInput = builder.inputType('InstanceInput', {
  description: 'JSON Merge Patch semantics: an absent field keeps its value; neither may be null.',
  fields: (t) => ({
    name: t.string({ description: 'At most 255 characters, not blank.' }),
    roamingEnabled: t.boolean({ description: 'Switches the roaming cost calculation of sessions processed from then on.' }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({ name: text().nullable() });

function instancePatch(input: typeof InstanceInput.$inferInput): Patch<InstanceFields> {
  validate(rules, { name: input.name });
  return { ...input } as Patch<InstanceFields>;
}

builder.queryFields((t) => ({
  instance: t.field({
    type: Instance, description: 'This instance (REST: GET /instance).',
    resolve: (_root, _args, context) => instanceOverview(context.em),
  }),
}));

builder.mutationFields((t) => ({
  updateInstance: t.field({
    type: Instance, nullable: true, description: 'Merge-updates this instance: name, roaming calculation on or off (REST: POST /instance). Needs a credential without an administration limit.',
    args: { input: t.arg({ type: InstanceInput, required: true }) },
    resolve: (_root, args, context) => mutate(context, 'input', (em) => updateInstanceSettings(em, instancePatch(args.input))),
  }),
}));
