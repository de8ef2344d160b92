import { valueFromASTUntyped } from 'graphql';
import { builder } from '../builder.ts';

export const JsonScalar = builder.scalarType('JSON', {
  description: 'Any JSON value.',
  coerceOutputValue: (value) => value,
  coerceInputValue: (value) => value,
  coerceInputLiteral: (node) => valueFromASTUntyped(node),
});
