import { ROLLUP_GROUP_BY } from '../../src/parties/customer.entity.ts';
import { enumOf } from '../enum.ts';

export const BillingRollupGroupBy = enumOf('BillingRollupGroupBy', ROLLUP_GROUP_BY, 'How billing lines of the customer are grouped.');
