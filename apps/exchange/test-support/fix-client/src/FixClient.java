/*
 * A FIX 4.4 initiator built on QuickFIX/J, driven line by line on stdin, so that tests can talk to
 * the exchange's acceptor through an independent FIX engine. Everything the engine receives is
 * printed on stdout, one line per message: "IN <MsgType> tag=value|tag=value|...", plus "LOGON"
 * and "LOGOUT" on session events. Commands:
 *   order <ClOrdID> <symbol> <buy|sell> <price> <qty> [OrdType]   NewOrderSingle (OrdType 2 = limit)
 *   bare  <ClOrdID> <symbol> <buy|sell> <price> <qty>             NewOrderSingle without TransactTime
 *   cancel <ClOrdID> <OrigClOrdID> <symbol> <buy|sell>             OrderCancelRequest
 *   status <ClOrdID> <symbol> <buy|sell> <OrdStatusReqID> [OrderID] OrderStatusRequest
 *   logout                                                          Logout, then exit once it is done
 * Arguments: host port senderCompID targetCompID password storeDir.
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.time.LocalDateTime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FileStoreFactory;
import quickfix.Message;
import quickfix.ScreenLogFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.ClOrdID;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Password;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;
import quickfix.fix44.OrderStatusRequest;
import quickfix.field.OrdStatusReqID;
import quickfix.field.OrderID;

public final class FixClient implements Application {
  private final String password;
  private final CountDownLatch loggedOut = new CountDownLatch(1);
  private volatile boolean wasLoggedOn;

  private FixClient(String password) {
    this.password = password;
  }

  private static synchronized void print(String line) {
    System.out.println(line);
    System.out.flush();
  }

  private static String readable(Message message) {
    return message.toString().replace('\u0001', '|');
  }

  @Override public void onCreate(SessionID id) {}

  @Override public void onLogon(SessionID id) {
    wasLoggedOn = true;
    print("LOGON");
  }

  @Override public void onLogout(SessionID id) {
    print("LOGOUT");
    if (wasLoggedOn) loggedOut.countDown();
  }

  @Override public void toAdmin(Message message, SessionID id) {
    try {
      if (MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD))) {
        message.setField(new Password(password));
      }
    } catch (quickfix.FieldNotFound e) {
      throw new IllegalStateException(e);
    }
  }

  @Override public void fromAdmin(Message message, SessionID id) {
    print("IN " + type(message) + " " + readable(message));
  }

  @Override public void toApp(Message message, SessionID id) {}

  @Override public void fromApp(Message message, SessionID id) {
    print("IN " + type(message) + " " + readable(message));
  }

  private static String type(Message message) {
    try {
      return message.getHeader().getString(MsgType.FIELD);
    } catch (quickfix.FieldNotFound e) {
      return "?";
    }
  }

  private static char side(String text) {
    return "buy".equals(text) ? Side.BUY : Side.SELL;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 6) {
      System.err.println("usage: FixClient host port sender target password storeDir");
      System.exit(2);
    }
    SessionSettings settings = new SessionSettings();
    SessionID id = new SessionID("FIX.4.4", args[2], args[3]);
    settings.setString("ConnectionType", "initiator");
    settings.setString("NonStopSession", "Y");
    settings.setString("HeartBtInt", "30");
    settings.setString("ReconnectInterval", "1");
    settings.setString("FileStorePath", args[5]);
    settings.setString("UseDataDictionary", "Y");
    settings.setString("DataDictionary", "FIX44.xml");
    settings.setString(id, "BeginString", "FIX.4.4");
    settings.setString(id, "SenderCompID", args[2]);
    settings.setString(id, "TargetCompID", args[3]);
    settings.setString(id, "SocketConnectHost", args[0]);
    settings.setString(id, "SocketConnectPort", args[1]);

    FixClient client = new FixClient(args[4]);
    SocketInitiator initiator = new SocketInitiator(
        client, new FileStoreFactory(settings), settings, new ScreenLogFactory(false, false, false), new DefaultMessageFactory());
    initiator.start();

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String line;
    while ((line = in.readLine()) != null) {
      String[] w = line.trim().split("\\s+");
      switch (w[0]) {
        case "order", "bare" -> {
          NewOrderSingle order = new NewOrderSingle();
          order.set(new ClOrdID(w[1]));
          order.set(new Symbol(w[2]));
          order.set(new Side(side(w[3])));
          char ordType = w.length > 6 ? w[6].charAt(0) : OrdType.LIMIT;
          order.set(new OrdType(ordType));
          if (ordType != OrdType.MARKET) order.set(new Price(Double.parseDouble(w[4])));
          order.set(new OrderQty(Double.parseDouble(w[5])));
          if (w[0].equals("order")) order.set(new TransactTime(LocalDateTime.now()));
          Session.sendToTarget(order, id);
        }
        case "cancel" -> {
          OrderCancelRequest cancel = new OrderCancelRequest();
          cancel.set(new ClOrdID(w[1]));
          cancel.set(new OrigClOrdID(w[2]));
          cancel.set(new Symbol(w[3]));
          cancel.set(new Side(side(w[4])));
          cancel.set(new TransactTime(LocalDateTime.now()));
          Session.sendToTarget(cancel, id);
        }
        case "status" -> {
          OrderStatusRequest status = new OrderStatusRequest();
          status.set(new ClOrdID(w[1]));
          status.set(new Symbol(w[2]));
          status.set(new Side(side(w[3])));
          status.set(new OrdStatusReqID(w[4]));
          if (w.length > 5) status.set(new OrderID(w[5]));
          Session.sendToTarget(status, id);
        }
        case "logout" -> {
          Session.lookupSession(id).logout("done");
          client.loggedOut.await(10, TimeUnit.SECONDS);
          initiator.stop();
          print("EXIT");
          System.exit(0);
        }
        default -> print("ERR unknown command " + w[0]);
      }
    }
    initiator.stop(true);
  }
}
