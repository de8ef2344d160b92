import { defineEntity, p } from '@mikro-orm/core';

/** The last document number taken per series and calendar year (document-number.ts). */
export const NumberCounterSchema = defineEntity({
  name: 'NumberCounter',
  tableName: 'billing_number_counter',
  properties: {
    seriesId: p.uuid().primary(),
    year: p.integer().primary(),
    lastNumber: p.integer(),
  },
});

export class NumberCounter extends NumberCounterSchema.class {}
NumberCounterSchema.setClass(NumberCounter);
