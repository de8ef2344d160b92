import { REIMBURSEMENT_VAT } from '../../src/parties/customer.entity.ts';
import { enumOf } from '../enum.ts';

export const ReimbursementVat = enumOf('ReimbursementVat', REIMBURSEMENT_VAT, 'Whether VAT applies to reimbursements to the customer.');
