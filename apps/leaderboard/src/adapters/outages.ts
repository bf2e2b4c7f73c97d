/**
 * Which errors of the servers' clients mean "unreachable now, retry later" (as opposed to a
 * request the server refused): those become the coded 503 LB_STORE_UNAVAILABLE (outage-guard.ts).
 */
import cassandra from 'cassandra-driver';

/** Cassandra cannot be reached now (as opposed to a query it refused). */
export function isCassandraOutage(error: unknown): boolean {
  const { errors } = cassandra;
  if (
    error instanceof errors.NoHostAvailableError ||
    error instanceof errors.OperationTimedOutError ||
    error instanceof errors.BusyConnectionError
  ) {
    return true;
  }
  const codes: readonly number[] = [
    cassandra.types.responseErrorCodes.unavailableException,
    cassandra.types.responseErrorCodes.overloaded,
    cassandra.types.responseErrorCodes.isBootstrapping,
    cassandra.types.responseErrorCodes.readTimeout,
    cassandra.types.responseErrorCodes.writeTimeout,
  ];
  return error instanceof errors.ResponseError && codes.includes(error.code);
}

/** nats.js errors by name (the client's classes live in a package this one does not import). */
const NATS_OUTAGES = new Set([
  'TimeoutError',
  'ConnectionError',
  'ClosedConnectionError',
  'DrainingConnectionError',
  'RequestError',
  'NoResponders',
  'JetStreamNotEnabled',
  // Ours: an append refused at once while the client reconnects (nats/connection-watch.ts).
  'NatsDisconnectedError',
]);

/** NATS cannot be reached now: the error, or one of its causes, is a connection or timeout error. */
export function isNatsOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (NATS_OUTAGES.has(e.name)) return true;
    // JetStream answers 503 when the stream has no leader yet (a server just restarted).
    if (e.name === 'JetStreamApiError' && (e as Error & { status?: number }).status === 503) return true;
  }
  return false;
}

/** Redis cannot be reached now (ioredis gave up on the request, or the connection is gone). */
export function isRedisOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  const code = (error as Error & { code?: string }).code;
  if (code !== undefined && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  // A Redis still loading its data answers LOADING; a closed client says so in words.
  return /^LOADING|Connection is closed|Stream isn't writeable/.test(error.message);
}
