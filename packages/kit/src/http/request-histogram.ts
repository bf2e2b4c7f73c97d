/**
 * The request-duration histogram, counted in plain arrays and handed to prom-client's registry
 * only when /metrics is scraped.
 *
 * Why not prom-client's Histogram: its `observe`, even on a labelled child, validates and hashes
 * the labels on every call, which profiled at about 5 % of a cheap request's time. Here a series
 * is found once per request by a string key and an observation is a bucket search and two adds.
 * The exposition is the same as prom-client's histogram (`_bucket` with `le`, `_sum`, `_count`).
 */
import type { MetricType, MetricValueWithName, Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Series {
  readonly labels: Labels;
  /** Non-cumulative count per bucket; the last one is +Inf. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

export interface RequestHistogramOptions {
  readonly name: string;
  readonly help: string;
  /** Upper bounds in seconds, ascending. */
  readonly buckets: readonly number[];
  readonly registry: Registry;
}

export class RequestHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  readonly #bounds: readonly number[];
  /** By route, then method and status: found without building a key string per request. */
  readonly #series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(options: RequestHistogramOptions) {
    this.name = options.name;
    this.help = options.help;
    this.#bounds = options.buckets;
    options.registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(method: string, route: string, statusCode: number, seconds: number): void {
    const series = this.#seriesOf(method, route, statusCode);
    let bucket = 0;
    while (bucket < this.#bounds.length && seconds > this.#bounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  #seriesOf(method: string, route: string, statusCode: number): Series {
    let methods = this.#series.get(route);
    if (methods === undefined) this.#series.set(route, (methods = new Map<string, Map<number, Series>>()));
    let statuses = methods.get(method);
    if (statuses === undefined) methods.set(method, (statuses = new Map<number, Series>()));
    let series = statuses.get(statusCode);
    if (series === undefined) {
      series = {
        labels: { method, route, status_code: String(statusCode) },
        counts: new Float64Array(this.#bounds.length + 1),
        sum: 0,
        count: 0,
      };
      statuses.set(statusCode, series);
    }
    return series;
  }

  /** What the registry asks for on a scrape: prom-client's histogram shape. */
  get(): Promise<{
    name: string;
    help: string;
    type: MetricType;
    values: Array<MetricValueWithName<string>>;
    aggregator: 'sum';
  }> {
    const values: Array<MetricValueWithName<string>> = [];
    for (const { labels, counts, sum, count } of this.#allSeries()) {
      let cumulative = 0;
      for (let i = 0; i <= this.#bounds.length; i++) {
        cumulative += counts[i]!;
        const le = i < this.#bounds.length ? this.#bounds[i]! : '+Inf';
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({
      name: this.name,
      help: this.help,
      // prom-client's MetricType is an enum-like type of string values; this is its 'histogram'.
      type: 'histogram' as unknown as MetricType,
      values,
      aggregator: this.aggregator,
    });
  }

  *#allSeries(): Iterable<Series> {
    for (const methods of this.#series.values()) {
      for (const statuses of methods.values()) yield* statuses.values();
    }
  }

  reset(): void {
    this.#series.clear();
  }
}
