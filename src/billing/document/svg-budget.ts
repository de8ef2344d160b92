// What drawing an SVG logo would cost, measured in one linear pass before svg-to-pdfkit draws it (it
// draws synchronously: a 1 KB file of <use> layers, each using the one below ten times, held the event
// loop for seconds). The text is parsed the way svg-to-pdfkit parses it (its regular expressions, no
// recursion), then each element's expanded cost is summed over its children and what it references
// (href, clip-path, mask), memoized, so <use> fan-out multiplies here as it would there:
// - about one unit per element drawn (~0.1 ms), plus a unit per 100 characters of its attributes (path
//   data parses per character) and per 10 of text (glyphs lay out one by one);
// - a clip-path or mask 5 units plus its content each time it is used;
// - every shape pays for the largest gradient referenced anywhere (a unit, and one per 10 stops), twice
//   (fill and stroke): inherited paint is charged without tracking what each element inherits.
// Refused outright: circular references, elements nested deeper than MAX_SVG_DEPTH, patterns and markers
// (drawn again for every shape or vertex they paint), clip-path, mask or marker from a style sheet
// (applied to every element a selector matches), url(...) values over 256 characters (svg-to-pdfkit's
// reference expression is quadratic in them) and named entities other than XML's in attributes (ids
// and references are compared after decoding).
export const MAX_SVG_COST = 10_000;
export const MAX_SVG_DEPTH = 64;
const MAX_STYLE_RULES = 1000;
const MAX_URL_VALUE = 256;
const CLIP_COST = 5;

const OPEN = /<([\w:.-]+)\s*/y;
const ATTRIBUTE = /([\w:.-]+)(?:\s*=\s*"([^"]*)"|\s*=\s*'([^']*)')?\s*/y;
const OPEN_END = />/y;
const SELF_CLOSE = /\/>/y;
const CLOSE = /<\/([\w:.-]+)\s*>/y;
const COMMENT = /<!--[\s\S]*?-->/y;
const INSTRUCTION = /<\?[\s\S]*?\?>/y;
const DOCTYPE = /<!DOCTYPE\s*[\s\S]*?>/y;
const CDATA = /<!\[CDATA\[([\s\S]*?)\]\]>/y;
const TEXT = /[^<]+/y;
// svg-to-pdfkit's resolveUrl: url("…#id"), url('…#id'), url(…#id) or …#id; a reference inside the document has nothing before the #.
const REFERENCE = /^\s*(?:url\("(.*)#(.*)"\)|url\('(.*)#(.*)'\)|url\((.*)#(.*)\)|(.*)#(.*))\s*$/;
const SHAPES = new Set(['rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'path', 'text', 'tspan', 'textPath']);
const XML_ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

interface Element { name: string; attributes: Map<string, string>; children: number[]; own: number }
export interface SvgBudget { cost: number; images: string[] }

class Refused extends Error {}
const tooComplex = () => new Refused(`the SVG logo is too complex to draw: it expands to more than ${MAX_SVG_COST} elements (each <use>, clip-path and mask counted where it is used)`);

function match(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

function decode(value: string): string {
  return value.replace(/&(?:#([0-9]+)|#[xX]([0-9A-Fa-f]+)|([0-9A-Za-z]+));/g, (whole, decimal, hex, name) => {
    if (decimal || hex) return String.fromCharCode(parseInt(decimal ?? hex, decimal ? 10 : 16));
    if (Object.hasOwn(XML_ENTITIES, name)) return XML_ENTITIES[name];
    throw new Refused(`an SVG logo's attributes may use XML's named entities only, not ${whole}`);
  });
}

/** svg-to-pdfkit's style attribute and style sheet declarations: key before the first colon, value up to the next. */
function declarations(style: string): [string, string][] {
  const result: [string, string][] = [];
  for (const part of style.split(';')) {
    const pieces = part.split(':'), key = (pieces[0] ?? '').trim(), value = (pieces[1] ?? '').trim();
    if (!key) continue;
    result.push([key, value]);
    if (key === 'marker') result.push(['marker-start', value], ['marker-mid', value], ['marker-end', value]);
  }
  return result;
}

function checkUrlLength(value: string): void {
  if (value.length > MAX_URL_VALUE && /^\s*url\(/.test(value)) throw new Refused(`an SVG logo's url(...) values are at most ${MAX_URL_VALUE} characters`);
}

function referencedId(value: string): string | null {
  const m = REFERENCE.exec(value);
  if (!m || m[1] || m[3] || m[5] || m[7]) return null;
  return m[2] || m[4] || m[6] || m[8] || null;
}

function parse(svg: string): { elements: Element[]; root: number; ids: Map<string, number>; css: string } {
  const text = svg.trim();
  const elements: Element[] = [];
  const ids = new Map<string, number>();
  const open: number[] = [];
  let pos = 0, root = -1, styles = 0, css = '', total = 0;
  // Every element costs at least its own once: past the limit, the rest need not be parsed.
  const charge = (element: number, cost: number) => {
    elements[element].own += cost;
    if ((total += cost) > MAX_SVG_COST) throw tooComplex();
  };
  const addText = (raw: string, styleText: () => string) => {
    if (open.length > 0) charge(open[open.length - 1], Math.ceil(raw.trim().length / 10));
    if (styles > 0) css += styleText();
  };
  // svg-to-pdfkit's parser returns to the open element when nothing parses here (a closing tag, a tag it
  // cannot parse): the element consumes a closing tag if there is one, and is closed either way.
  const closeOpen = (): boolean => {
    if (open.length === 0) return false;
    const close = match(CLOSE, text, pos);
    if (close) pos += close[0].length;
    if (elements[open.pop()!].name === 'style') styles--;
    return close !== null;
  };
  while (pos < text.length) {
    let m: RegExpExecArray | null;
    if ((m = match(OPEN, text, pos))) {
      const name = m[1];
      pos += m[0].length;
      const attributes = new Map<string, string>();
      let attributeChars = 0;
      while ((m = match(ATTRIBUTE, text, pos))) {
        pos += m[0].length;
        const value = decode(m[2] ?? m[3] ?? '');
        if (!attributes.get(m[1])) attributes.set(m[1], value); // svg-to-pdfkit keeps the first non-empty value
        if (m[1] !== 'href' && m[1] !== 'xlink:href') attributeChars += value.length;
      }
      const end = match(SELF_CLOSE, text, pos) ?? match(OPEN_END, text, pos);
      if (!end) { // dropped; what follows is parsed again in its parent
        if (open.length === 0) break;
        closeOpen();
        continue;
      }
      pos += end[0].length;
      const index = elements.length;
      elements.push({ name, attributes, children: [], own: 0 });
      charge(index, 1 + Math.floor(attributeChars / 100));
      if (open.length > 0) elements[open[open.length - 1]].children.push(index);
      else if (root === -1) root = index;
      const id = attributes.get('id');
      if (id && !ids.has(id) && (index === root || open[0] === root)) ids.set(id, index);
      if (end[0] === '>') {
        open.push(index);
        if (name === 'style') styles++;
        if (open.length > MAX_SVG_DEPTH) throw new Refused(`an SVG logo nests elements at most ${MAX_SVG_DEPTH} deep`);
      }
    } else if ((m = match(COMMENT, text, pos) ?? match(INSTRUCTION, text, pos) ?? match(DOCTYPE, text, pos))) {
      pos += m[0].length;
    } else if ((m = match(CDATA, text, pos))) {
      pos += m[0].length;
      const content = m[1];
      addText(content, () => content);
    } else if ((m = match(TEXT, text, pos))) {
      pos += m[0].length;
      const content = m[0];
      addText(content, () => decode(content));
    } else if (!closeOpen()) {
      break; // nothing will parse here: every open element closes and the parse ends
    }
  }
  return { elements, root, ids, css };
}

/** The cost of drawing an SVG (see above, at most MAX_SVG_COST) and its embedded data: images, or why it is refused. */
export function svgBudget(svg: string): SvgBudget | string {
  try {
    return measure(svg);
  } catch (error) {
    if (error instanceof Refused) return error.message;
    throw error;
  }
}

function measure(svg: string): SvgBudget {
  const { elements, root, ids, css } = parse(svg);
  if (root < 0) return { cost: 0, images: [] };
  const gradients = new Set<number>();
  // Each element's references: [target, extra cost per use].
  const references = elements.map(() => [] as [number, number][]);
  const paint = (element: number | null, key: string, value: string) => {
    checkUrlLength(value);
    const isPaint = key === 'fill' || key === 'stroke';
    if (!isPaint && key !== 'clip-path' && key !== 'mask' && !key.startsWith('marker-')) return;
    const id = referencedId(isPaint ? value.split(' ')[0] : value);
    const target = id === null ? undefined : ids.get(id);
    if (target === undefined) return;
    const name = elements[target].name;
    if (key.startsWith('marker-')) throw new Refused('an SVG logo may not use markers');
    if (isPaint && name === 'pattern') throw new Refused('an SVG logo may not paint with patterns');
    if (isPaint) {
      if (name === 'linearGradient' || name === 'radialGradient') gradients.add(target);
    } else if (element === null) {
      throw new Refused(`an SVG logo sets ${key} as an attribute only, not in a style sheet`);
    } else {
      references[element].push([target, CLIP_COST]);
    }
  };
  const images: string[] = [];
  elements.forEach((element, index) => {
    for (const [key, value] of element.attributes) {
      if (key === 'style') for (const [property, v] of declarations(value)) paint(index, property, v);
      else paint(index, key, value);
    }
    const href = element.attributes.get('href') || element.attributes.get('xlink:href');
    if (!href) return;
    if (element.name === 'image') {
      if (/^\s*data:/i.test(href)) images.push(href.replace(/\s+/g, ''));
    } else if (element.name !== 'a') {
      const id = referencedId(href);
      const target = id === null ? undefined : ids.get(id);
      if (target !== undefined) references[index].push([target, 0]);
    }
  });
  const blocks = [...css.matchAll(/\{([^{}]*)\}/g)];
  if (blocks.length + (css.match(/,/g)?.length ?? 0) > MAX_STYLE_RULES) throw new Refused(`an SVG logo's style sheet has at most ${MAX_STYLE_RULES} rules`);
  for (const block of blocks) for (const [key, value] of declarations(block[1])) paint(null, key, value);

  const costs = (shapeExtra: number): number[] => {
    const cost = new Array<number>(elements.length).fill(-1); // -1: not yet, -2: being summed
    const stack: number[] = [root];
    while (stack.length > 0) {
      const at = stack[stack.length - 1];
      if (cost[at] === -1) {
        cost[at] = -2;
        for (const next of [...elements[at].children, ...references[at].map(([target]) => target)]) {
          if (cost[next] === -2) throw new Refused('an SVG logo may not reference itself in a circle (href, clip-path or mask)');
          if (cost[next] === -1) stack.push(next);
        }
      } else {
        stack.pop();
        if (cost[at] !== -2) continue; // pushed twice, summed already
        let sum = elements[at].own + (SHAPES.has(elements[at].name) ? shapeExtra : 0);
        for (const child of elements[at].children) sum += cost[child];
        for (const [target, extra] of references[at]) sum += extra + cost[target];
        cost[at] = Math.min(sum, MAX_SVG_COST + 1);
      }
    }
    return cost;
  };
  let shapeExtra = 0;
  if (gradients.size > 0) {
    const plain = costs(0); // a gradient draws its stops only, no shapes
    for (const gradient of gradients) shapeExtra = Math.max(shapeExtra, 2 * (1 + Math.ceil(Math.max(plain[gradient], 0) / 10)));
  }
  const cost = costs(shapeExtra)[root];
  if (cost > MAX_SVG_COST) throw tooComplex();
  return { cost, images };
}
