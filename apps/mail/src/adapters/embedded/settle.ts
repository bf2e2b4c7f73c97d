/**
 * The SQLite calls are synchronous while the ports are asynchronous (other backends are not).
 * Running a method body through `settle` keeps the port's contract: a failure is a rejected
 * promise, never a synchronous throw.
 */
export function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
