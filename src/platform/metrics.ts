// Metrics in the Prometheus text format (prom-client), served at GET /main/metrics (decisions:
// "Running"). The HTTP plumbing counts every answer by method, route pattern and status and times
// it; what lives in the database (job queue, webhook backlog, billing backfill) is read when
// scraped, by sources the composition root adds. A source that fails (the database is down) leaves
// its series out of that scrape and says so in `svc_metrics_source_up`; the rest is still served.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestRecord } from './http/request-log.ts';

/** Request durations in seconds: from a cached read to the 5 s database bound and past it. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface MetricsSource {
  /** Names the source in `svc_metrics_source_up`. */
  name: string;
  /** Reads what it reports and sets its gauges (reset first: a row that went away is no series). */
  read(): Promise<void>;
  /** Its gauges, cleared when a read fails. */
  gauges: Gauge[];
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly sources: MetricsSource[] = [];
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly sourceUp: Gauge<'source'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'svc_http_requests_total', help: 'HTTP requests answered, by method, route pattern (unmatched: no route) and status.',
      labelNames: ['method', 'route', 'status'], registers: [this.registry],
    });
    this.durations = new Histogram({
      name: 'svc_http_request_duration_seconds', help: 'Time from receiving a request to its answer, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'], buckets: DURATION_BUCKETS, registers: [this.registry],
    });
    this.sourceUp = new Gauge({
      name: 'svc_metrics_source_up', help: '1 when the source of these series was read for this scrape, 0 when it failed (the database is down).',
      labelNames: ['source'], registers: [this.registry],
    });
  }

  /** An answered request (the request log's `observe`). */
  observeRequest(record: RequestRecord): void {
    const labels = { method: METHODS.has(record.method) ? record.method : 'OTHER', route: record.route ?? 'unmatched', status: String(record.status) };
    this.requests.inc(labels);
    this.durations.observe(labels, record.seconds);
  }

  /** A gauge of this registry. */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return new Gauge<L>({ name, help, labelNames: [...labelNames], registers: [this.registry] });
  }

  addSource(source: MetricsSource): void {
    this.sources.push(source);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text of a scrape: every source read (side by side), then every series. */
  async text(): Promise<string> {
    await Promise.all(this.sources.map(async (source) => {
      try {
        await source.read();
        this.sourceUp.set({ source: source.name }, 1);
      } catch {
        for (const gauge of source.gauges) gauge.reset();
        this.sourceUp.set({ source: source.name }, 0);
      }
    }));
    return this.registry.metrics();
  }
}
