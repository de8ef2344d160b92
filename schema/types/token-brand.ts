import * as yup from 'yup';
import { upsertTokenBrand } from '../../src/msp/token-brand.service.ts';
import { tokenBrands, type TokenBrandData } from '../../src/msp/token.queries.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { isDataOf } from '../../src/platform/seek-page.ts';
import { builder } from '../builder.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';

export const TokenBrand = builder.objectRef<TokenBrandData>('TokenBrand').implement({
  description: 'A brand tokens may carry (instance-wide).',
  isTypeOf: (value) => isDataOf(value, 'TokenBrand'),
  fields: (t) => ({
    code: t.exposeString('code'),
    name: t.exposeString('name'),
  }),
});

const brandRules = yup.object({ name: text().required('${path} is required') });

builder.queryFields((t) => ({
  tokenBrands: t.field({
    type: [TokenBrand],
    description: 'Every token brand, by code (REST: GET /msp-token-brand).',
    resolve: (_root, _args, context) => tokenBrands(context.em),
  }),
}));

builder.mutationFields((t) => ({
  saveTokenBrand: t.field({
    type: TokenBrand,
    nullable: true,
    description: 'Creates a token brand or renames it (REST: POST /msp-token-brand/{code}). Brands are instance-wide: only a '
      + 'credential not limited to administrations may change them.',
    args: {
      code: t.arg.string({ required: true, description: '1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.' }),
      name: t.arg.string({ required: true }),
    },
    resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => {
      validate(brandRules, { name: args.name });
      return upsertTokenBrand(em, args.code, args.name);
    }),
  }),
}));
