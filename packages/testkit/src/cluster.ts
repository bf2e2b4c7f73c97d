/**
 * A real single-node Kubernetes cluster for tests (kubelet, containerd, CoreDNS, Traefik as the
 * ingress controller): started through `tools/cluster.sh up`, or taken from the environment
 * (TEST_CLUSTER_KUBECONFIG with TEST_CLUSTER_INGRESS_URL, and TEST_CLUSTER_CONTAINERD for
 * importing images), or reused when an earlier `up` left one running (and then left running).
 * The cluster is reached only through 127.0.0.1: its API server and its ingress.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { toolCache } from './tools.ts';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../../tools/cluster.sh', import.meta.url));
const IMAGE = fileURLToPath(new URL('../../../tools/image.sh', import.meta.url));

export interface Cluster {
  /** The kubeconfig file of a cluster admin (never the developer's own KUBECONFIG). */
  readonly kubeconfig: string;
  /** The ingress controller, e.g. http://127.0.0.1:18480. */
  readonly ingressUrl: string;
  /** containerd's socket, where images are imported (undefined: images must be there already). */
  readonly containerd: string | undefined;
  /** The daemons' logs (<dir>/<daemon>.log) when this machine's script runs the cluster. */
  readonly logs: string | undefined;
  /** Stops the cluster if this call started it. */
  stop(): Promise<void>;
}

/** KEY=VALUE lines of a script's output. */
export function parseAssignments(stdout: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) found.set(match[1]!, match[2]!);
  }
  return found;
}

function failure(what: string, error: unknown): Error {
  const { stderr, message } = error as { stderr?: string; message: string };
  return new Error(`${what}:\n${stderr || message}`, { cause: error });
}

/** Starts (or finds) the cluster. */
export async function cluster(env = process.env): Promise<Cluster> {
  const given = env.TEST_CLUSTER_KUBECONFIG;
  if (given) {
    const ingressUrl = env.TEST_CLUSTER_INGRESS_URL;
    if (!ingressUrl) throw new Error('TEST_CLUSTER_KUBECONFIG is set without TEST_CLUSTER_INGRESS_URL');
    return {
      kubeconfig: given,
      ingressUrl,
      containerd: env.TEST_CLUSTER_CONTAINERD || undefined,
      logs: undefined,
      stop: () => Promise.resolve(),
    };
  }
  let stdout: string;
  try {
    // A cold machine first builds kubelet and the rest (about half an hour on two busy cores).
    ({ stdout } = await run('bash', [SCRIPT, 'up'], { timeout: 3_600_000, env, maxBuffer: 16 << 20 }));
  } catch (error) {
    throw failure('the cluster could not start (tools/cluster.sh up)', error);
  }
  const printed = parseAssignments(stdout);
  const kubeconfig = printed.get('KUBECONFIG');
  const ingressUrl = printed.get('INGRESS_URL');
  if (!kubeconfig || !ingressUrl)
    throw new Error(`tools/cluster.sh up printed no KUBECONFIG or INGRESS_URL:\n${stdout}`);
  const started = printed.get('STARTED') === 'cluster';
  return {
    kubeconfig,
    ingressUrl,
    containerd: printed.get('CONTAINERD_ADDRESS'),
    logs: printed.get('CLUSTER_LOGS'),
    async stop() {
      if (!started) return;
      try {
        await run('bash', [SCRIPT, 'down'], { env, timeout: 300_000 });
      } catch (error) {
        throw failure('the cluster did not stop cleanly (tools/cluster.sh down)', error);
      }
    },
  };
}

/** Runs kubectl (the cached build of tools/install.sh) against the cluster; resolves to stdout. */
export async function kubectl(
  target: Cluster,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number } = {},
): Promise<string> {
  const command = `${toolCache()}/bin/kubectl`;
  const child = execFile(command, ['--kubeconfig', target.kubeconfig, ...args], {
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 16 << 20,
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  else child.stdin?.end();
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (exit ${code}):\n${stderr}${stdout}`);
  return stdout;
}

export interface ImageOptions {
  /** The root filesystem's directory. */
  readonly rootfs: string;
  /** A full reference with a tag: tessera.local/name:tag. */
  readonly name: string;
  readonly entrypoint?: readonly string[];
  readonly cmd?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly user?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** Builds an OCI image from a directory (tools/image.sh) and imports it into the cluster's containerd. */
export async function importImage(target: Cluster, image: ImageOptions): Promise<string> {
  if (target.containerd === undefined) {
    throw new Error(`no containerd to import ${image.name} into (set TEST_CLUSTER_CONTAINERD)`);
  }
  const args = ['--rootfs', image.rootfs, '--name', image.name, '--import'];
  if (image.entrypoint) args.push('--entrypoint', JSON.stringify(image.entrypoint));
  if (image.cmd) args.push('--cmd', JSON.stringify(image.cmd));
  for (const [key, value] of Object.entries(image.env ?? {})) args.push('--env', `${key}=${value}`);
  for (const [key, value] of Object.entries(image.labels ?? {})) args.push('--label', `${key}=${value}`);
  if (image.user !== undefined) args.push('--user', image.user);
  try {
    const { stdout } = await run('bash', [IMAGE, ...args], {
      env: { ...process.env, CONTAINERD_ADDRESS: target.containerd },
      timeout: 300_000,
    });
    const digest = parseAssignments(stdout).get('DIGEST');
    if (!digest) throw new Error(`tools/image.sh printed no DIGEST:\n${stdout}`);
    return digest;
  } catch (error) {
    throw failure(`could not build or import ${image.name} (tools/image.sh)`, error);
  }
}
