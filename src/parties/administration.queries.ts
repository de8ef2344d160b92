// The administration reads both transports call (REST GET /administration, GraphQL
// `administrations`): plain data with the seller, the caller's administrations only.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { Administration } from './administration.entity.ts';

export type AdministrationData = Pick<Administration, 'id' | 'name' | 'currency' | 'country' | 'localeId' | 'createdAt' | 'updatedAt'>
  & { seller?: { id: string; name: string; country: string } | null };

/** Administrations by slug (a slug is any string). */
export function administrationList(em: Em): SeekList<AdministrationData> {
  return new SeekList<AdministrationData>(em, { entity: Administration, isKey: () => true, join: ['seller'] });
}
