import { DomainError } from '../src/platform/errors.ts';
import type { Em } from '../src/platform/orm.ts';
import type { GraphQLContext } from './context.ts';
import { inArgument } from './errors.ts';

/**
 * Runs a service call for a mutation field. A failure discards what the service changed in the
 * request's unit of work (a later mutation of the same request must not flush it), and its
 * param is reported below the field's input argument.
 */
export async function mutate<T>(context: GraphQLContext, inputArgument: string | null, run: (em: Em) => Promise<T>): Promise<T> {
  try {
    return await run(context.em);
  } catch (error) {
    context.em.clear();
    if (error instanceof DomainError && inputArgument) throw inArgument(error, inputArgument);
    throw error;
  }
}
