import test from 'ava';
import { svgBudget } from '../../../src/billing/document/svg-budget.ts';

test('an SVG logo\'s attributes use XML\'s five named entities only: names of members of every object (constructor, toString) are refused too', (t) => {
  const svg = (entity: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect id="a&${entity};b" width="10" height="10"/></svg>`;
  t.is(typeof svgBudget(svg('amp')), 'object', 'a known entity is drawn');
  for (const entity of ['constructor', 'toString', 'hasOwnProperty', 'nbsp']) {
    t.regex(String(svgBudget(svg(entity))), /named entities only/, entity);
  }
});
