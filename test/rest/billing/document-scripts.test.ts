// Users' texts in scripts that Noto Sans lacks (Hebrew, Arabic, Chinese, Japanese, Thai, Devanagari,
// emoji) on a finalized document. Found 2026-11-28: the PDF drew them with Noto Sans only, so each
// printed as the missing glyph (.notdef, read back as U+0000), and wrapping and cutting measured them
// with its widths; the UBL had them right. The PDF draws each run of a text with the first font of
// the fallback chain that has its glyphs (src/billing/document/font-runs.ts) and measures it so.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { finalizedCustomItemBox, type CustomItemBoxOptions } from '../../helpers/billing-factories.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';
import { ensureVatRate } from '../../helpers/session-factories.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp();
  await ensureVatRate(app);
});
test.after.always(async () => { await app?.close(); });

async function finalized(options: CustomItemBoxOptions) {
  const { final, boxId } = await finalizedCustomItemBox(app, options);
  const pdf = await app.request('GET', `/main/v1/billing-box/${boxId}/document`);
  const xml = await app.request('GET', `/main/v1/billing-box/${boxId}/document`, { headers: { accept: 'application/xml' } });
  const bytes = pdf.body as Buffer;
  const pages = await pdfPages(bytes);
  return { final, bytes, pages, lines: pages.flatMap((p) => p.split('\n')), xml: xml.body as string };
}

/** The base names of the fonts a PDF embeds (pdfkit names a subset "ABCDEF+PostScriptName"). */
const embeddedFonts = (bytes: Buffer) => [...new Set([...bytes.toString('latin1').matchAll(/\/BaseFont \/[A-Z]{6}\+([\w-]+)/g)].map((m) => m[1]))].sort();

const HAN = /\p{Script=Han}/gu;
const hanCount = (s: string) => s.match(HAN)?.length ?? 0;

test('Hebrew, Arabic, Chinese, Japanese, Thai, Devanagari and emoji in names, address, items and reference print in fallback fonts, no missing glyph', async (t) => {
  const texts = {
    seller: '株式会社テスト充電',
    customer: 'דוד לוי',
    street: 'شارع الملك فيصل',
    city: '北京市朝阳区',
    thai: 'ค่าบริการชาร์จ',
    devanagari: 'चार्जिंग सेवा',
    japanese: 'テスト充電サービス',
    reference: 'הזמנה',
  };
  const { final, bytes, pages, xml } = await finalized({
    seller: { name: texts.seller },
    customer: { name: texts.customer },
    address: { address_line1: texts.street, postal_code: '100020', city: texts.city },
    reference: texts.reference,
    items: [{ description: `${texts.thai} ⚡🔌` }, { description: texts.devanagari }, { description: texts.japanese }],
  });
  t.is(final.status, 200, JSON.stringify(final.body));
  for (const s of Object.values(texts)) t.true(xml.includes(s), `the UBL has ${s}`);
  const text = pages.join('\n');
  t.deepEqual([...text.matchAll(/[\u0000\uFFFD]/g)].length, 0,
    `no missing glyph: ${JSON.stringify(text.split('\n').filter((l) => /[\u0000\uFFFD]/.test(l)))}`);
  const fonts = embeddedFonts(bytes);
  // Noto Sans (Devanagari is in it) and, bold and regular, the fallbacks (@embedpdf's regular faces are named without "-Regular").
  t.deepEqual(fonts, ['NotoEmoji-Regular', 'NotoNaskhArabic', 'NotoSans-Bold', 'NotoSans-Regular', 'NotoSansHans-Bold', 'NotoSansHans-Regular',
    'NotoSansHebrew', 'NotoSansHebrew-Bold', 'NotoSansThai-Regular']);
  // Read back as a reader's copy would: each text whole (a right-to-left run in its reading order).
  // Devanagari (in Noto Sans itself) is left out: pdf.js reads its vowel sign ि where it is drawn, before its consonant.
  for (const [what, s] of Object.entries(texts)) if (what !== 'devanagari') t.true(text.includes(s), `${s} in\n${text}`);
  t.true(/⚡ ?🔌/u.test(text), 'the emoji');
});

test('a text of mixed scripts is measured in its runs\' fonts: a long Chinese description wraps in its column, a long reference is cut with "…" where it fits', async (t) => {
  // 120 Han characters: at 9 pt each is 9 pt wide, so about 36 fit in the description's 330 pt (Noto
  // Sans's missing glyph is 5.4 pt wide: measured with it, 61 would); the header's value cell is 240 pt.
  const han = '充电服务费北京上海广州深圳杭州南京成都武汉西安重庆天津苏州长沙郑州青岛沈阳大连厦门宁波济南合肥福州昆明哈尔滨长春石家庄太原南昌贵阳南宁兰州银川西宁乌鲁木齐拉萨呼和浩特海口三亚珠海佛山东莞中山惠州汕头湛江桂林柳州';
  const description = `Ladestrom ${han.repeat(2).slice(0, 120)}`;
  const reference = `订单${han.slice(0, 58)}`;
  const { final, lines, pages } = await finalized({ reference, items: [{ description }] });
  t.is(final.status, 200, JSON.stringify(final.body));
  t.is(pages.length, 1);
  // pdf-parse reads in the order drawn: the description's lines, then its VAT and amount.
  const first = lines.findIndex((l) => l.startsWith('1 Ladestrom'));
  t.true(first >= 0, lines.join('\n'));
  const amounts = lines.indexOf('S 21.00% 10.00', first);
  t.true(amounts > first, lines.join('\n'));
  const descriptionLines = lines.slice(first, amounts);
  t.is(descriptionLines.join('').replace(/^1 /, '').replace(/\s+/g, ''), description.replace(/\s+/g, ''), 'the whole description, in order');
  const perLine = descriptionLines.map(hanCount);
  t.true(perLine.length >= 4, `wrapped in its column: ${perLine}`);
  t.true(perLine.slice(1, -1).every((n) => n >= 30 && n <= 37), `as many as fit in 330 pt: ${perLine}`);
  const printed = lines.find((l) => l.startsWith('Your reference:'));
  t.truthy(printed, lines.join('\n'));
  t.true(printed!.endsWith('…'), printed);
  t.true(hanCount(printed!) >= 22 && hanCount(printed!) <= 27, `cut where 240 pt end: ${printed}`);
});

test('right-to-left: a Hebrew street with its house number reads in order (the number left of the words), an Arabic name is shaped', async (t) => {
  const { final, pages } = await finalized({
    customer: { name: 'محمد بن سلمان' }, address: { address_line1: 'רחוב הרצל 12', postal_code: '6100000', city: 'Tel Aviv' }, items: [{ description: 'Charging' }],
  });
  t.is(final.status, 200, JSON.stringify(final.body));
  const text = pages.join('\n');
  t.true(text.includes('محمد بن سلمان'), text);
  // pdf.js reads a line in its visual order, each right-to-left item back to its reading order: the
  // number, drawn left of the words as the bidi algorithm orders it, comes first.
  t.true(text.includes('12 רחוב הרצל') || text.includes('רחוב הרצל 12'), text);
  t.false(text.split('\n').some((l) => l.includes('הרצל') && l.includes('21')), 'the number is not reversed');
});

test('a name and a description of hundreds of lines in fallback fonts stay on the pages the layout counts, cut with "…"', async (t) => {
  const { final, pages } = await finalized({ customer: { name: 'ש\n'.repeat(127) }, items: [{ description: '北\n'.repeat(499) }] });
  t.is(final.status, 200, JSON.stringify(final.body));
  const label = pages.findIndex((p) => p.includes('Payment reference:'));
  t.regex(pages[label], /RF\d\d /, 'the reference on the page of its label');
  t.is(pages.findIndex((p) => p.includes('Total incl. VAT')), label);
  pages.forEach((page, i) => t.true(page.includes(`Page ${i + 1} of ${pages.length}`), `page ${i + 1}`));
  const text = pages.join('\n');
  t.true(/北…/.test(text), 'the description cut at the bottom of its page');
  t.false(/[\u0000\uFFFD]/.test(text));
});
