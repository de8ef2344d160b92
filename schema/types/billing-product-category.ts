// Product categories of an administration (REST: /billing-product-category): the built-in ones and its own.
import * as yup from 'yup';
import { createProductCategory } from '../../src/billing/product-category.service.ts';
import type { ProductCategoryData } from '../../src/billing/product-category.queries.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { mutate } from '../mutation.ts';

const BillingProductCategory = builder.objectRef<ProductCategoryData>('BillingProductCategory').implement({
  description: 'What roll-ups group items by (REST: /billing-product-category); charging, subscription_fee and custom are built in.',
  fields: (t) => ({
    databaseId: t.string({ nullable: true, resolve: (c) => c.id }),
    adminId: t.string({ nullable: true, resolve: (c) => c.adminId }),
    code: t.exposeString('code'),
    description: t.exposeString('description'),
    builtIn: t.exposeBoolean('builtIn'),
  }),
});

const BillingProductCategoryInput = builder.inputType('BillingProductCategoryInput', {
  description: 'A product category of an administration.',
  fields: (t) => ({
    adminId: t.id({ required: true, description: 'Slug or global ID of the administration.' }),
    code: t.string({ required: true, description: 'Unique in the administration; not a built-in code.' }),
    description: t.string({ required: true }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({ adminId: text(64), code: text(64), description: text() });

builder.mutationField('createBillingProductCategory', (t) => t.field({
  type: BillingProductCategory, nullable: true,
  description: 'Creates a product category of an administration (REST: POST /billing-product-category).',
  args: { input: t.arg({ type: BillingProductCategoryInput, required: true }) },
  resolve: (_root, args, context) => mutate(context, 'input', (em) => {
    validate(rules, args.input);
    return createProductCategory(em, { ...args.input, adminId: administrationKey(String(args.input.adminId)) });
  }),
}));
