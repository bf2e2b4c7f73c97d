/**
 * The kit's own operational routes: left out of the request histogram, traces and OpenAPI, so
 * probes and scrapes every few seconds do not drown the service's real traffic.
 */
export function isOperationalRoute(route: string | undefined): boolean {
  return (
    route === '/metrics' ||
    route === '/healthz' ||
    route === '/readyz' ||
    route === '/docs' ||
    route?.startsWith('/docs/') === true
  );
}
