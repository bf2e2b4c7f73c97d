/**
 * The cluster smoke test's image (busybox: httpd serving a page, and the shell, nslookup and nc
 * for the client pod), imported into the cluster's containerd, and the containers that run it.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { importImage, type Cluster } from '../../src/cluster.ts';

export const IMAGE = 'tessera.local/cluster-smoke:1';
export const MARKER = 'served by the tessera cluster smoke test';

/** Builds the image's root file system and imports it (a cluster without containerd has it). */
export async function importSmokeImage(t: Test, target: Cluster): Promise<void> {
  const rootfs = mkdtempSync(join(tmpdir(), 'tessera-cluster-smoke-'));
  t.teardown(() => rmSync(rootfs, { recursive: true, force: true }));
  mkdirSync(join(rootfs, 'bin'));
  mkdirSync(join(rootfs, 'www'));
  copyFileSync('/bin/busybox', join(rootfs, 'bin', 'busybox'));
  for (const applet of ['sh', 'httpd', 'nslookup', 'nc', 'sleep', 'cat', 'echo', 'printf']) {
    symlinkSync('busybox', join(rootfs, 'bin', applet));
  }
  writeFileSync(join(rootfs, 'www', 'index.html'), `${MARKER}\n`);
  if (target.containerd !== undefined) {
    await importImage(target, { rootfs, name: IMAGE, entrypoint: ['/bin/sh'], env: { PATH: '/bin' } });
  }
}

export const container = (name: string, command: string[], extra: object = {}) => ({
  name,
  image: IMAGE,
  imagePullPolicy: 'Never',
  command,
  ...extra,
});

export const podSpec = (containers: object[], extra: object = {}) => ({
  terminationGracePeriodSeconds: 1, // busybox as PID 1 ignores SIGTERM
  automountServiceAccountToken: false,
  enableServiceLinks: false,
  containers,
  ...extra,
});
