import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.ts';
import './types/administration.ts';
import './types/customer.ts';
import './types/billing-address.ts';
import './types/direct-debit-mandate.ts';
import './types/subscription-plan.ts';
import './types/token-series.ts';
import './types/token.ts';
import './types/token-subscription.ts';
import './types/token-link.ts';
import './types/token-brand.ts';
import './types/token-issuance.ts';
import './types/roaming-command.ts';
import './types/vat-rate.ts';
import './types/rate-plan.ts';
import './types/rate-plan-version.ts';
import './types/cost-calculation.ts';
import './types/dropout-case.ts';
import './types/pricing-result.ts';
import './types/charge-session.ts';
import './types/billing-box.ts';
import './types/billing-review-set.ts';
import './types/billing-backfill.ts';
import './types/billing-logo.ts';
import './types/billing-exchange-rate.ts';
import './types/billing-series.ts';
import './types/billing-product-category.ts';
import './types/billing-settings.ts';
import './types/billing-custom-item.ts';
import './types/billing-box-delivery.ts';
import './types/cpo-subscription.ts';
import './types/cpo-subscription-evse-link.ts';
import './types/cpo-reference-data.ts';
import './types/evse.ts';
import './types/session-reimbursement.ts';
import './types/webhook-subscription.ts';
import './types/reimbursement-arrangement.ts';
import './types/reimbursement-link.ts';
import './types/calculation-input.ts';
import './types/roaming-agreement.ts';
import './types/roaming-connection.ts';
import './types/roaming-partner.ts';
import './types/instance.ts';
import './types/end-user.ts';
import './types/ocpi-registration.ts';
import './types/api-credential.ts';
import './types/viewer.ts';

builder.queryType({});
builder.mutationType({});

export const schema = builder.toSchema();

/** The SDL committed as schema/schema.graphql (`npm run schema:print`). */
export function printSdl(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
