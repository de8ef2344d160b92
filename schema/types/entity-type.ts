import { ENTITY_TYPES } from '../../src/parties/customer.entity.ts';
import { enumOf } from '../enum.ts';

export const EntityType = enumOf('EntityType', ENTITY_TYPES, 'Whether a customer is a person or an organisation.');
