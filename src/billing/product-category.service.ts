// Product categories: the built-in ones every administration has, plus its own (extension).
import { visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { BUILT_IN_PRODUCT_CATEGORIES, ProductCategory } from './product-category.entity.ts';
import { SeekList } from '../platform/seek-page.ts';

export interface ProductCategoryData {
  id: string | null;
  adminId: string | null;
  code: string;
  description: string;
  builtIn: boolean;
}

const toData = (row: Record<string, any>): ProductCategoryData => ({
  id: row.id, adminId: typeof row.admin === 'object' ? row.admin.id : row.admin, code: row.code, description: row.description,
  builtIn: Boolean(BUILT_IN_PRODUCT_CATEGORIES[String(row.code).toLowerCase()]),
});

export function productCategoryList(em: Em, filter: { adminId?: string } = {}): SeekList<ProductCategoryData> {
  return new SeekList<ProductCategoryData>(em, { entity: ProductCategory, where: filter.adminId ? { admin: filter.adminId } : {}, map: toData });
}

/** Every administration with billing has the built-in categories as rows of its own. */
export async function ensureBuiltInCategories(em: Em, adminId: string): Promise<void> {
  for (const [code, description] of Object.entries(BUILT_IN_PRODUCT_CATEGORIES)) {
    await em.execute(`insert into billing_product_category (id, admin_id, code, description, created_at, updated_at)
      values (svc_uuidv7(), ?, ?, ?, now(), now()) on conflict (admin_id, code) do nothing`, [adminId, code, description]);
  }
}

export async function createProductCategory(em: Em, input: { adminId?: string | null; code?: string | null; description?: string | null }) {
  const admin = await visibleAdministration(em, input.adminId);
  if (!input.code) throw new InvalidInputError('code is required', { path: ['code'] });
  if (BUILT_IN_PRODUCT_CATEGORIES[input.code.toLowerCase()]) throw new DomainError('duplicate', `${input.code} is a built-in category`, { path: ['code'] });
  if (!input.description) throw new InvalidInputError('description is required', { path: ['description'] });
  const category = em.create(ProductCategory, { admin, code: input.code, description: input.description });
  await flushUnique(em, { billing_product_category_admin_id_code_unique: ['code'] });
  return { id: category.id, adminId: admin.id, code: category.code, description: category.description, builtIn: false };
}
