// Exact decimal arithmetic for rule scripts, evaluated inside the sandbox: BigInt fixed point
// with 6 decimals (half away from zero), on and to strings, so a script never needs floats.
export const DECIMAL_PRELUDE = String.raw`
const dec = (() => {
  const SCALE = 1000000n;
  const PATTERN = /^-?\d{1,14}(\.\d{1,6})?$/;
  const parse = (v) => {
    const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : v;
    if (typeof s !== 'string' || !PATTERN.test(s)) throw new TypeError('not a decimal string: ' + String(v));
    const negative = s.startsWith('-');
    const [int, frac = ''] = (negative ? s.slice(1) : s).split('.');
    const n = BigInt(int) * SCALE + BigInt((frac + '000000').slice(0, 6));
    return negative ? -n : n;
  };
  const divRound = (a, b) => {
    const negative = (a < 0n) !== (b < 0n);
    const x = a < 0n ? -a : a;
    const y = b < 0n ? -b : b;
    const q = (2n * x + y) / (2n * y);
    return negative ? -q : q;
  };
  const show = (n) => {
    const negative = n < 0n;
    const x = negative ? -n : n;
    const int = x / SCALE;
    const frac = String(x % SCALE).padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
    return (negative && x !== 0n ? '-' : '') + int + '.' + frac;
  };
  return Object.freeze({
    add: (a, b) => show(parse(a) + parse(b)),
    sub: (a, b) => show(parse(a) - parse(b)),
    mul: (a, b) => show(divRound(parse(a) * parse(b), SCALE)),
    div: (a, b) => { const d = parse(b); if (d === 0n) throw new RangeError('division by zero'); return show(divRound(parse(a) * SCALE, d)); },
    round: (a, places = 2) => { const f = 10n ** BigInt(6 - places); return show(divRound(parse(a), f) * f); },
    cmp: (a, b) => { const d = parse(a) - parse(b); return d < 0n ? -1 : d > 0n ? 1 : 0; },
    percent: (a, p) => show(divRound(parse(a) * parse(p), 100n * SCALE)),
  });
})();
`;
