import { FULFILMENT_STATES } from '../../src/msp/token.entity.ts';
import { enumOf } from '../enum.ts';

export const TokenFulfilment = enumOf('TokenFulfilment', FULFILMENT_STATES, 'Whether a physical token was requested for delivery and activated.');
