import { DomainError } from '../src/platform/errors.ts';
import type { Em } from '../src/platform/orm.ts';
import type { GraphQLContext } from './context.ts';
import { inArgument, inArguments } from './errors.ts';

/** A field whose service failures name its plain arguments (`plan_id` is `planId`), not members of one input argument. */
export const FIELD_ARGUMENTS = Symbol('field arguments');

/**
 * Runs a service call for a mutation field. A failure discards what the service changed in the
 * request's unit of work (a later mutation of the same request must not flush it), and its
 * param is reported below the field's input argument (or, with FIELD_ARGUMENTS, at the argument).
 */
export async function mutate<T>(context: GraphQLContext, inputArgument: string | typeof FIELD_ARGUMENTS | null, run: (em: Em) => Promise<T>): Promise<T> {
  try {
    return await run(context.em);
  } catch (error) {
    context.em.clear();
    if (error instanceof DomainError && inputArgument === FIELD_ARGUMENTS) throw inArguments(error);
    if (error instanceof DomainError && typeof inputArgument === 'string') throw inArgument(error, inputArgument);
    throw error;
  }
}
