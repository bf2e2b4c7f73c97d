import { Registry } from 'prom-client';
import t from 'tap';
import { RequestHistogram } from '../../src/http/request-histogram.ts';

/** Each method, route and status is its own series; a scrape shows prom-client's histogram lines. */
t.test('observations are counted per method, route and status', async (t) => {
  const registry = new Registry();
  const histogram = new RequestHistogram({ name: 'd', help: 'h', buckets: [0.01, 0.1], registry });
  histogram.observe('GET', '/a', 200, 0.005);
  histogram.observe('GET', '/a', 200, 0.05);
  histogram.observe('GET', '/a', 404, 0.5);
  histogram.observe('POST', '/a', 200, 0.001);
  histogram.observe('GET', '/b', 200, 0.2);
  const text = await registry.metrics();
  const line = (labels: string, value: number) =>
    t.ok(text.split('\n').includes(`${labels} ${value}`), `${labels} ${value}`);
  line('d_bucket{le="0.01",method="GET",route="/a",status_code="200"}', 1);
  line('d_bucket{le="0.1",method="GET",route="/a",status_code="200"}', 2);
  line('d_bucket{le="+Inf",method="GET",route="/a",status_code="200"}', 2);
  line('d_count{method="GET",route="/a",status_code="200"}', 2);
  line('d_bucket{le="0.1",method="GET",route="/a",status_code="404"}', 0);
  line('d_count{method="GET",route="/a",status_code="404"}', 1);
  line('d_sum{method="GET",route="/a",status_code="404"}', 0.5);
  line('d_count{method="POST",route="/a",status_code="200"}', 1);
  line('d_bucket{le="+Inf",method="GET",route="/b",status_code="200"}', 1);
  t.equal(text.match(/^d_count/gm)?.length, 4, 'four series');
  histogram.reset();
  t.notMatch(await registry.metrics(), /^d_count/m, 'reset forgets every series');
});
