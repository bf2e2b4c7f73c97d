/*
 * exchange-core's order book (OrderBookDirectImpl, its fast one) driven directly with the engine
 * benchmark's journals (apps/exchange/bench/engine.ts writes them), one symbol, one thread, as
 * our engine is driven: each event becomes one OrderCommand (a GTC limit order or a cancel) given
 * to IOrderBook.processCommand, its trade events dropped after each command.
 *
 * Journal file: little-endian, an int32 count, then per event: u8 type (1 new, 2 cancel), u8 side
 * (0 buy, 1 sell), then int64 order id, price and quantity.
 * Arguments: journal file, measured runs. Prints one JSON line: ops/s of each run (after two
 * warm-up runs) and the latency percentiles (ns) of a separate pass timing every event with
 * System.nanoTime().
 */
import exchange.core2.collections.objpool.ObjectsPool;
import exchange.core2.core.common.CoreSymbolSpecification;
import exchange.core2.core.common.OrderAction;
import exchange.core2.core.common.OrderType;
import exchange.core2.core.common.SymbolType;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.LoggingConfiguration;
import exchange.core2.core.orderbook.IOrderBook;
import exchange.core2.core.orderbook.OrderBookDirectImpl;
import exchange.core2.core.orderbook.OrderBookEventsHelper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

public final class ExchangeCoreBench {
  private static final CoreSymbolSpecification SPEC = CoreSymbolSpecification.builder()
      .symbolId(1)
      .type(SymbolType.FUTURES_CONTRACT)
      .baseCurrency(1)
      .quoteCurrency(2)
      .baseScaleK(1)
      .quoteScaleK(1)
      .takerFee(0)
      .makerFee(0)
      .marginBuy(0)
      .marginSell(0)
      .build();

  private final int length;
  private final byte[] type;
  private final byte[] side;
  private final long[] orderId;
  private final long[] price;
  private final long[] quantity;

  private ExchangeCoreBench(Path file) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    length = in.getInt();
    type = new byte[length];
    side = new byte[length];
    orderId = new long[length];
    price = new long[length];
    quantity = new long[length];
    for (int i = 0; i < length; i++) {
      type[i] = in.get();
      side[i] = in.get();
      orderId[i] = in.getLong();
      price[i] = in.getLong();
      quantity[i] = in.getLong();
    }
  }

  private static IOrderBook newBook() {
    return new OrderBookDirectImpl(
        SPEC, ObjectsPool.createDefaultTestPool(), OrderBookEventsHelper.NON_POOLED_EVENTS_HELPER, LoggingConfiguration.DEFAULT);
  }

  /** Event i as a command, written into the one reused command object. */
  private void fill(OrderCommand cmd, int i) {
    cmd.orderId = orderId[i];
    cmd.uid = 1;
    cmd.symbol = 1;
    cmd.matcherEvent = null;
    cmd.resultCode = CommandResultCode.VALID_FOR_MATCHING_ENGINE;
    if (type[i] == 1) {
      cmd.command = OrderCommandType.PLACE_ORDER;
      cmd.orderType = OrderType.GTC;
      cmd.action = side[i] == 0 ? OrderAction.BID : OrderAction.ASK;
      cmd.price = price[i];
      cmd.reserveBidPrice = price[i];
      cmd.size = quantity[i];
    } else {
      cmd.command = OrderCommandType.CANCEL_ORDER;
    }
  }

  /** One throughput run on a fresh book: nanoseconds. Fails loudly if a cancel missed its order. */
  private long run() {
    IOrderBook book = newBook();
    OrderCommand cmd = new OrderCommand();
    long start = System.nanoTime();
    for (int i = 0; i < length; i++) {
      fill(cmd, i);
      CommandResultCode result = IOrderBook.processCommand(book, cmd);
      if (result != CommandResultCode.SUCCESS) throw new IllegalStateException("event " + i + ": " + result);
    }
    return System.nanoTime() - start;
  }

  private long[] latencies() {
    IOrderBook book = newBook();
    OrderCommand cmd = new OrderCommand();
    long[] ns = new long[length];
    for (int i = 0; i < length; i++) {
      fill(cmd, i);
      long t0 = System.nanoTime();
      IOrderBook.processCommand(book, cmd);
      ns[i] = System.nanoTime() - t0;
    }
    Arrays.sort(ns);
    return ns;
  }

  private static long at(long[] sorted, double p) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
  }

  public static void main(String[] args) throws IOException {
    ExchangeCoreBench bench = new ExchangeCoreBench(Path.of(args[0]));
    int runs = Integer.parseInt(args[1]);
    bench.run();
    bench.run();
    StringBuilder ops = new StringBuilder();
    for (int r = 0; r < runs; r++) {
      long ns = bench.run();
      ops.append(r == 0 ? "" : ",").append(Math.round(bench.length / (ns / 1e9)));
    }
    bench.latencies();
    long[] ns = bench.latencies();
    System.out.printf(
        "{\"events\":%d,\"runs\":[%s],\"latencyNs\":{\"p50\":%d,\"p99\":%d,\"p999\":%d,\"p9999\":%d,\"max\":%d}}%n",
        bench.length, ops, at(ns, 0.5), at(ns, 0.99), at(ns, 0.999), at(ns, 0.9999), ns[ns.length - 1]);
  }
}
