/** Reading a SQLite WAL file's header in tests (https://sqlite.org/fileformat.html#wal_file_format). */
import { closeSync, openSync, readSync } from 'node:fs';

/** The WAL header's checkpoint sequence of `<file>-wal`: SQLite adds one each time it starts the WAL over. */
export function walRestarts(file: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${file}-wal`, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}
