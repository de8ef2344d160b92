// Product categories: the built-in ones every administration has, plus its own (extension). The
// list is in product-category.queries.ts.
import { visibleAdministration } from '../parties/customer-input.ts';
import { DomainError, InvalidInputError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { BUILT_IN_PRODUCT_CATEGORIES, isBuiltInCategory, ProductCategory } from './product-category.entity.ts';
import type { ProductCategoryData } from './product-category.queries.ts';

/** Every administration with billing has the built-in categories as rows of its own. */
export async function ensureBuiltInCategories(em: Em, adminId: string): Promise<void> {
  for (const [code, description] of Object.entries(BUILT_IN_PRODUCT_CATEGORIES)) {
    await em.execute(`insert into billing_product_category (id, admin_id, code, description, created_at, updated_at)
      values (svc_uuidv7(), ?, ?, ?, now(), now()) on conflict (admin_id, code) do nothing`, [adminId, code, description]);
  }
}

export async function createProductCategory(
  em: Em, input: { adminId?: string | null; code?: string | null; description?: string | null },
): Promise<ProductCategoryData> {
  const admin = await visibleAdministration(em, input.adminId);
  if (!input.code) throw new InvalidInputError('code is required', { path: ['code'] });
  if (isBuiltInCategory(input.code.toLowerCase())) throw new DomainError('duplicate', `${input.code} is a built-in category`, { path: ['code'] });
  if (!input.description) throw new InvalidInputError('description is required', { path: ['description'] });
  const category = em.create(ProductCategory, { admin, code: input.code, description: input.description });
  await flushUnique(em, { billing_product_category_admin_id_code_unique: ['code'] });
  return { id: category.id, adminId: admin.id, code: category.code, description: category.description, builtIn: false };
}
