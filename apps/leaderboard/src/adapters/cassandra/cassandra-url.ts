/** `cassandra://host:port[,host:port…]/datacenter`, as tools/backends.sh prints CASSANDRA_URL. */
export interface CassandraAddress {
  readonly contactPoints: string[];
  readonly dataCenter: string;
}

const CASSANDRA_URL = /^cassandra:\/\/([^/]+)\/([^/]+)$/;

export function parseCassandraUrl(url: string): CassandraAddress {
  const match = CASSANDRA_URL.exec(url);
  if (match === null)
    throw new Error(
      `CASSANDRA_URL must look like cassandra://host:port/datacenter (got ${JSON.stringify(url)})`,
    );
  return { contactPoints: match[1]!.split(','), dataCenter: decodeURIComponent(match[2]!) };
}
