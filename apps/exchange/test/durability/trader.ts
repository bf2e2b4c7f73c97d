/**
 * The process the kill -9 test kills: funds the flow's accounts, then sends its requests in
 * batches, printing the sequence number after each durable group commit (what has been
 * acknowledged), until killed (or done after MAX_REQUESTS, so the loop is bounded).
 * Usage: trader.ts <journal file> <snapshot every>
 */
import { fund, orderFlow, send } from '../../bench/order-flow.ts';
import { BATCH, FLOW, traderService } from './trading-setup.ts';

const MAX_REQUESTS = 1_000_000;
const [file, snapshotEvery] = process.argv.slice(2);
const { service } = traderService(file!, Number(snapshotEvery));
await fund(service, FLOW);
const next = orderFlow(FLOW);
for (let i = 1; i <= MAX_REQUESTS; i++) {
  send(service, next());
  if (i % BATCH === 0) {
    await service.durable();
    process.stdout.write(`${service.seq}\n`);
  }
}
