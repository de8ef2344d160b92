import { callerScope } from '../access/admin-scope.ts';
import { assertMayChangeInstanceWide } from '../access/instance-wide.ts';
import { InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { createUnlessTaken } from '../platform/flush-unique.ts';
import type { Em } from '../platform/orm.ts';
import { plainData, type Data } from '../platform/plain-data.ts';
import { TokenBrand } from './token-brand.entity.ts';

const CODE_KEY = 'msp_token_brand_pkey';

/** Starts with a letter or digit: no `__proto__` (an object key clients may trip on), `.` or `..` (path segments). */
export const BRAND_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The stored casing of an existing brand code; an unknown code is 400 not_found at `path`. */
export async function existingBrandCode(em: Em, code: string, path = ['brand_code']): Promise<string> {
  const brand = await em.findOne(TokenBrand, { code });
  if (!brand) throw new NotFoundError('token brand', { path });
  return brand.code;
}

/** POST /msp-token-brand/{code}: creates the brand or renames it (the code keeps its casing). Brands are instance-wide. */
export async function upsertTokenBrand(em: Em, code: string, name: string): Promise<Data<TokenBrand>> {
  assertMayChangeInstanceWide(callerScope(em), 'token brands');
  if (!BRAND_CODE.test(code)) {
    throw new InvalidInputError('a brand code (in the path) has 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit');
  }
  let brand = await em.findOne(TokenBrand, { code });
  if (!brand) {
    // The code is the key: the same create sent at once stores the brand once, the others rename it.
    const created = await createUnlessTaken(em, CODE_KEY, async (tx) => {
      const stored = tx.create(TokenBrand, { code, name });
      await tx.flush();
      return plainData(stored);
    });
    if (created) return created;
    brand = await em.findOneOrFail(TokenBrand, { code });
  }
  brand.name = name;
  await em.flush();
  return plainData(brand);
}
