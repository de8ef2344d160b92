// The bodies the CPO contract links share (reimbursement links, CPO subscription EVSE links):
// validity bounds and external_updated_at, and the optional body of a defunct operation.
import * as yup from 'yup';
import { isoDate, timestamp } from '../../src/platform/input-schemas.ts';
import type { FieldMapping } from '../rails/patch.ts';

export const linkBody = yup.object({ valid_from: timestamp().nullable(), valid_until: timestamp().nullable(), external_updated_at: timestamp().nullable() });

export const LINK: FieldMapping = {
  valid_from: { to: 'validFrom', convert: isoDate }, valid_until: { to: 'validUntil', convert: isoDate }, external_updated_at: { to: 'externalUpdatedAt', convert: isoDate },
};

export const defunctBody = yup.object({ external_updated_at: timestamp().nullable() });
