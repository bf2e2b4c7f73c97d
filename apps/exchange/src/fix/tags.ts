/** The FIX 4.4 tags, message types and enumerated values the acceptor reads or writes. */

export const TAG = {
  Account: 1,
  AvgPx: 6,
  BeginSeqNo: 7,
  ClOrdID: 11,
  CumQty: 14,
  EndSeqNo: 16,
  ExecID: 17,
  LastPx: 31,
  LastQty: 32,
  MsgSeqNum: 34,
  MsgType: 35,
  NewSeqNo: 36,
  OrderID: 37,
  OrderQty: 38,
  OrdStatus: 39,
  OrdType: 40,
  OrigClOrdID: 41,
  PossDupFlag: 43,
  PossResend: 97,
  Price: 44,
  RefSeqNum: 45,
  SenderCompID: 49,
  SendingTime: 52,
  Side: 54,
  Symbol: 55,
  TargetCompID: 56,
  Text: 58,
  TransactTime: 60,
  EncryptMethod: 98,
  HeartBtInt: 108,
  TestReqID: 112,
  OrigSendingTime: 122,
  GapFillFlag: 123,
  ResetSeqNumFlag: 141,
  ExecType: 150,
  LeavesQty: 151,
  CxlRejReason: 102,
  OrdRejReason: 103,
  CxlRejResponseTo: 434,
  RefTagID: 371,
  RefMsgType: 372,
  SessionRejectReason: 373,
  BusinessRejectReason: 380,
  Username: 553,
  Password: 554,
  OrdStatusReqID: 790,
} as const;

export const MSG = {
  Heartbeat: '0',
  TestRequest: '1',
  ResendRequest: '2',
  Reject: '3',
  SequenceReset: '4',
  Logout: '5',
  ExecutionReport: '8',
  OrderCancelReject: '9',
  Logon: 'A',
  NewOrderSingle: 'D',
  OrderCancelRequest: 'F',
  OrderStatusRequest: 'H',
  BusinessMessageReject: 'j',
} as const;

/** Session-level message types: never resent, gap-filled instead. */
export const ADMIN_TYPES: ReadonlySet<string> = new Set(['0', '1', '2', '3', '4', '5', 'A']);

/** SessionRejectReason (373). */
export const SESSION_REJECT = {
  InvalidTag: 0,
  RequiredTagMissing: 1,
  TagNotDefinedForMsgType: 2,
  UndefinedTag: 3,
  TagWithoutValue: 4,
  ValueOutOfRange: 5,
  IncorrectDataFormat: 6,
  CompIdProblem: 9,
  SendingTimeAccuracy: 10,
  InvalidMsgType: 11,
} as const;

/** BusinessRejectReason (380). */
export const BUSINESS_REJECT = { Other: 0, UnsupportedMessageType: 3, ApplicationNotAvailable: 4 } as const;

/** OrdStatus (39) and ExecType (150) share these codes. */
export const ORD_STATUS = {
  New: '0',
  PartiallyFilled: '1',
  Filled: '2',
  Canceled: '4',
  Rejected: '8',
} as const;

export const EXEC_TYPE = { New: '0', Canceled: '4', Rejected: '8', Trade: 'F', OrderStatus: 'I' } as const;

/** OrdRejReason (103). */
export const ORD_REJ = {
  BrokerOption: 0,
  UnknownSymbol: 1,
  ExchangeClosed: 2,
  ExceedsLimit: 3,
  UnknownOrder: 5,
  DuplicateOrder: 6,
  UnsupportedOrderCharacteristic: 11,
  IncorrectQuantity: 13,
  Other: 99,
} as const;

/** CxlRejReason (102). */
export const CXL_REJ = { TooLateToCancel: 0, UnknownOrder: 1, Other: 99 } as const;
