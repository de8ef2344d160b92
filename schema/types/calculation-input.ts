import * as yup from 'yup';
import { INPUT_OWNERS } from '../../src/cpo/calculation-input.entity.ts';
import type { CalculationInputData } from '../../src/cpo/reimbursement.queries.ts';
import { setCalculationInput } from '../../src/cpo/reimbursement-plan.service.ts';
import { normalize } from '../../src/money/decimal.ts';
import { InvalidInputError } from '../../src/platform/errors.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { enumOf } from '../enum.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { planId } from './cpo-reference-data.ts';
import { DateTime } from './date-time.ts';
import { arrangementId } from './reimbursement-arrangement.ts';

export const CalculationInputOwner = enumOf('CalculationInputOwner', INPUT_OWNERS, 'Whose calculation input: a reimbursement plan\'s or an arrangement\'s.');

export const CalculationInput = builder.objectRef<CalculationInputData>('CalculationInput').implement({
  description: 'A price of one cost component, or of a custom variable, from validFrom on '
    + '(REST: /cpo-reimbursement-plan/{id}/calculation-input, /cpo-reimbursement-arrangement/{id}/calculation-input).',
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    validFrom: t.field({ type: DateTime, description: 'Local midnight of the administration.', resolve: (i) => i.validFrom }),
    componentType: t.exposeString('componentType', { description: 'energy, time, parking_time, flat or custom.' }),
    varName: t.string({ nullable: true, description: 'The custom variable (componentType custom).', resolve: (i) => i.varName || null }),
    value: t.string({ description: 'A decimal string.', resolve: (i) => normalize(i.value) }),
    updatedAt: t.field({ type: DateTime, resolve: (i) => i.updatedAt }),
  }),
});

const valueRules = yup.object({ value: yup.string().nullable().defined('${path} is required (null removes the input)') });

builder.mutationFields((t) => ({
  setCalculationInput: t.field({
    type: [CalculationInput], nullable: true,
    description: 'Sets the input of a component, or of a custom variable, from a date on; a null value removes it. Answers all inputs of '
      + 'the owner by validFrom (REST: PUT and DELETE /cpo-reimbursement-plan/{id}/calculation-input/{valid_from}/{component_type} '
      + 'or .../custom/{var_name}, the same for arrangements). An invalid date or component is invalid_input at $, as in REST.',
    args: {
      owner: t.arg({ type: CalculationInputOwner, required: true }),
      ownerId: t.arg.id({ required: true, description: 'Global ID or REST id of the plan or arrangement.' }),
      validFrom: t.arg.string({ required: true, description: 'A date, YYYY-MM-DD: from local midnight of the administration.' }),
      componentType: t.arg.string({ description: 'energy, time, parking_time or flat; or give customVarName instead.' }),
      customVarName: t.arg.string({ description: 'A custom variable (letters, digits and _); or give componentType instead.' }),
      value: t.arg.string({ description: 'A decimal string, not negative; null removes the input (required, as in REST).' }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => {
      validate(valueRules, { value: args.value });
      if ((args.componentType == null) === (args.customVarName == null)) {
        throw new InvalidInputError('give either componentType or customVarName', { path: ['componentType'] });
      }
      const ownerId = args.owner === 'plan' ? planId(args.ownerId) : arrangementId(args.ownerId);
      const [componentType, varName] = args.customVarName == null ? [args.componentType!, ''] : ['custom', args.customVarName];
      return setCalculationInput(em, { kind: args.owner, id: ownerId }, args.validFrom, componentType, varName, args.value ?? null);
    }),
  }),
}));
