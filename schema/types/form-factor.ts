import { FORM_FACTOR_IDS } from '../../src/msp/token-reference-data.ts';
import { enumOf } from '../enum.ts';

export const FormFactor = enumOf('TokenFormFactor', FORM_FACTOR_IDS, 'The physical or virtual form of a token (REST: GET /msp-token-form-factor).');
