/** nginx of a benchmark's own in front of its processes (one worker, loopback only). */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A port nginx listens on and the processes (host:port) it balances over. */
export interface Site {
  readonly port: number;
  readonly upstreams: readonly string[];
}

/** Writes the configuration into `dir` and starts nginx on it. */
export function startNginx(dir: string, sites: readonly Site[]): ChildProcess {
  writeFileSync(join(dir, 'nginx.conf'), nginxConf(dir, sites));
  return spawn('/usr/sbin/nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
}

/** Waits (5 s at most) until `url` answers /healthz through nginx. */
export async function untilAnswering(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One nginx (one worker) in front of every site: a port and the processes it balances over. */
function nginxConf(dir: string, sites: readonly Site[]): string {
  const http = sites
    .map(
      (
        { port, upstreams },
        i,
      ) => `  upstream site${i} { ${upstreams.map((u) => `server ${u};`).join(' ')} keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://site${i}; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }`,
    )
    .join('\n');
  return `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
${http}
}
`;
}
