// The optional payment inputs of close and approve (a box or a review-set).
import * as yup from 'yup';
import type { PaymentOptions } from '../../src/billing/billing-box.entity.ts';
import { text } from '../../src/platform/input-schemas.ts';

export const paymentBody = yup.object({
  payment_method: text(64).nullable(),
  payment_period: yup.number().integer('${path} must be a whole number of days').min(0).max(365).nullable(),
  billing_reference: text().nullable(),
});

export const paymentOptions = (body: yup.InferType<typeof paymentBody>): PaymentOptions => ({
  paymentMethod: body.payment_method, paymentPeriodDays: body.payment_period, billingReference: body.billing_reference,
});
