// Daily rates to an administration's VAT accounting currency (REST: /administration/{id}/billing-exchange-rate).
import * as yup from 'yup';
import { setExchangeRate } from '../../src/billing/exchange-rate.service.ts';
import type { ExchangeRateData } from '../../src/billing/exchange-rate.queries.ts';
import { normalize } from '../../src/money/decimal.ts';
import { text } from '../../src/platform/input-schemas.ts';
import { validate } from '../../src/platform/input-validation.ts';
import { builder } from '../builder.ts';
import { administrationKey } from '../ids.ts';
import { FIELD_ARGUMENTS, mutate } from '../mutation.ts';
import { DateTime } from './date-time.ts';

const BillingExchangeRate = builder.objectRef<ExchangeRateData>('BillingExchangeRate').implement({
  description: "One unit of the administration's currency is rate units of currency on date (REST: /administration/{id}/billing-exchange-rate).",
  fields: (t) => ({
    databaseId: t.exposeString('id'),
    adminId: t.exposeString('adminId'),
    currency: t.exposeString('currency'),
    date: t.exposeString('date', { description: 'YYYY-MM-DD.' }),
    rate: t.string({ description: 'A decimal string.', resolve: (r) => normalize(r.rate) }),
    createdAt: t.field({ type: DateTime, resolve: (r) => r.createdAt }),
  }),
});

/** What GraphQL types cannot say; the same rules as the REST body. */
const rules = yup.object({ currency: text(3), date: text(10), rate: text(32) });

builder.mutationField('setBillingExchangeRate', (t) => t.field({
  type: BillingExchangeRate, nullable: true,
  description: 'Sets the rate of a currency on a date; a second call for the date replaces it (REST: POST /administration/{id}/billing-exchange-rate). '
    + 'Boxes answer foreign currency totals with the rate of their invoice date, or of the latest earlier date, when the billing settings '
    + 'name a vatAccountingCurrency.',
  args: {
    adminId: t.arg.string({ required: true, description: 'Slug or global ID of the administration.' }),
    currency: t.arg.string({ required: true, description: 'An ISO 4217 code: USD.' }),
    date: t.arg.string({ required: true, description: 'YYYY-MM-DD.' }),
    rate: t.arg.string({ required: true, description: 'A positive decimal string.' }),
  },
  resolve: (_root, args, context) => mutate(context, FIELD_ARGUMENTS, (em) => {
    const input = { currency: args.currency, date: args.date, rate: args.rate };
    validate(rules, input);
    return setExchangeRate(em, administrationKey(args.adminId), input);
  }),
}));
