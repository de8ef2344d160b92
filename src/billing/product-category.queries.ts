// The product category list (REST GET /billing-product-category): the built-in categories (rows of
// every administration with billing) and its own, plain data.
import type { Em } from '../platform/orm.ts';
import { SeekList } from '../platform/seek-page.ts';
import { isBuiltInCategory, ProductCategory } from './product-category.entity.ts';

export interface ProductCategoryData {
  id: string | null;
  adminId: string | null;
  code: string;
  description: string;
  builtIn: boolean;
}

const toData = (row: Record<string, any>): ProductCategoryData => ({
  id: row.id, adminId: typeof row.admin === 'object' ? row.admin.id : row.admin, code: row.code, description: row.description,
  builtIn: isBuiltInCategory(String(row.code).toLowerCase()),
});

export function productCategoryList(em: Em, filter: { adminId?: string } = {}): SeekList<ProductCategoryData> {
  return new SeekList<ProductCategoryData>(em, { entity: ProductCategory, where: filter.adminId ? { admin: filter.adminId } : {}, map: toData });
}
