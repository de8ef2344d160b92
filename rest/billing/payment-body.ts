// The optional payment inputs of close and approve (a box or a review-set).
import * as yup from 'yup';
import type { PaymentOptions } from '../../src/billing/billing-box.entity.ts';
import { PAYMENT_METHODS } from '../../src/billing/billing-settings.entity.ts';
import { oneOf, text } from '../../src/platform/input-schemas.ts';

export const paymentBody = yup.object({
  // The methods the documents name (their labels, UBL PaymentMeans); any other stored broke the draft's render.
  payment_method: oneOf(PAYMENT_METHODS).nullable(),
  payment_period: yup.number().integer('${path} must be a whole number of days').min(0).max(365).nullable(),
  billing_reference: text().nullable(),
});

export const paymentOptions = (body: yup.InferType<typeof paymentBody>): PaymentOptions => ({
  paymentMethod: body.payment_method, paymentPeriodDays: body.payment_period, billingReference: body.billing_reference,
});
