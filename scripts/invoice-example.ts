// `npm run docs:invoice-example`: the README's example invoice. Creates the demo instance on a
// PostgreSQL of its own (embedded, in a temporary directory, as `npm start` would), takes the
// finalized invoice of last month with charge sessions (Jan de Vries's) and writes its first page as
// docs/invoice-example.png (pdf-parse renders it with pdfjs and @napi-rs/canvas, both from npm).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFParse } from 'pdf-parse';
import { registerRestEventRenderers } from '../rest/events/event-renderers.ts';
import { boxList } from '../src/billing/billing-box.queries.ts';
import { getDocument } from '../src/billing/document-store.ts';
import { ensureDemoInstance } from '../src/demo/demo-instance.ts';
import { startEmbeddedPostgres } from '../src/platform/embedded-postgres.ts';
import { scopedEm } from '../src/access/admin-scope.ts';
import { registerItemSources } from '../src/item-sources.ts';
import { migrate, openOrm } from '../src/platform/orm.ts';
import { migrateJobQueue } from '../src/worker/worker.ts';
import { ormConfig } from '../mikro-orm.config.ts';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'invoice-example.png');
const PAGE = Number(process.env.PAGE ?? 1);

registerRestEventRenderers();
registerItemSources();
const dataDir = mkdtempSync(join(tmpdir(), 'svc-invoice-example-'));
chmodSync(dataDir, 0o755);
const pg = await startEmbeddedPostgres({ dataDir, database: 'example' });
try {
  const orm = await openOrm(ormConfig(pg.url));
  await migrate(orm);
  await migrateJobQueue(pg.url);
  await ensureDemoInstance(orm, () => {});
  const em = scopedEm(orm);
  const finalized = await boxList(em, { state: 'finalized' }).page({ limit: 100 });
  const box = finalized.find((b) => b.partyExternalReference === 'CUST-1001' && b.rollups.some((r) => r.productCategory === 'charging'));
  if (!box) throw new Error('the demo has no finalized invoice with charge sessions');
  const pdf = await getDocument(em, box.id, { primary: true });
  const parser = new PDFParse({ data: new Uint8Array(pdf!.bytes) });
  const shot = await parser.getScreenshot({ scale: 1.6, imageBuffer: true, imageDataUrl: false, partial: [PAGE] });
  await parser.destroy();
  writeFileSync(OUT, Buffer.from(shot.pages[0].data));
  console.log(`wrote ${OUT}: page ${PAGE} of ${box.invoiceCode} (${box.partyName}), ${shot.pages[0].data.length} bytes`);
  await orm.close();
} finally {
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
