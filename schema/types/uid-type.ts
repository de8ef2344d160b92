import { UID_TYPE_IDS } from '../../src/msp/token-reference-data.ts';
import { enumOf } from '../enum.ts';

export const UidType = enumOf('TokenUidType', UID_TYPE_IDS, 'What kind of identifier a token\'s uid is (REST: GET /msp-token-uid-type).');
