import t from 'tap';
import { UserIdTable } from '../../src/core/user-id-table.ts';

/** How many of `ids` are not found, do not come back exactly, or share a handle with another. */
function misses(table: UserIdTable, ids: readonly string[]): number {
  const seen = new Set<number>();
  let wrong = 0;
  for (const id of ids) {
    const handle = table.handleOf(id);
    if (handle < 0 || handle >= table.capacity || seen.has(handle) || table.idOf(handle) !== id) wrong++;
    seen.add(handle);
  }
  return wrong;
}

const range = (from: number, to: number, id: (i: number) => string): string[] =>
  Array.from({ length: to - from }, (_, i) => id(from + i));

t.test('interns ids as handles (their slots) and gives them back', async (t) => {
  const table = new UserIdTable();
  const alice = table.intern('alice');
  const bob = table.intern('bob');
  t.not(alice, bob);
  t.equal(table.intern('alice'), alice);
  t.equal(table.handleOf('bob'), bob);
  t.equal(table.handleOf('carol'), -1);
  t.equal(table.idOf(bob), 'bob');
  t.equal(table.size, 2);
});

t.test('a growth moves every handle, and onMove maps each old handle to its new one', async (t) => {
  const moves: Array<{ map: Int32Array; capacity: number }> = [];
  const table = new UserIdTable((map, capacity) => moves.push({ map, capacity }));
  const id = (i: number): string =>
    i % 4 === 0 ? `player_${i}` : (i * 2654435761 + 1).toString(16).padStart(24, '0');
  const handles = new Map<string, number>();
  let wrong = 0;
  for (let i = 0; i < 20_000; i++) {
    const before = moves.length;
    const handle = table.intern(id(i));
    // Follow the handles held so far through every move, as the ranking's columns do.
    for (const { map, capacity } of moves.slice(before)) {
      t.equal(capacity, table.capacity);
      for (const [key, old] of handles) handles.set(key, map[old]!);
    }
    handles.set(id(i), handle);
    if (moves.length > before) for (const [key, held] of handles) if (table.handleOf(key) !== held) wrong++;
  }
  t.ok(moves.length >= 5, `${moves.length} growths`);
  t.equal(wrong, 0, "every held handle, mapped, is the player's handle after each growth");
  t.ok(
    moves.every(({ map }) => map.filter((to) => to >= 0).length <= table.size),
    'empty slots map to -1',
  );
  const before = table.handleOf(id(1));
  table.moveForTest();
  const { map } = moves.at(-1)!;
  t.equal(table.handleOf(id(1)), map[before]);
  t.equal(misses(table, range(0, 20_000, id)), 0);
});

t.test('keeps every id through many growths and rehashes', async (t) => {
  const table = new UserIdTable();
  const n = 100_000;
  for (let i = 0; i < n; i++) table.intern(`user_${i.toString(36)}-x`);
  t.equal(table.size, n);
  t.equal(
    misses(
      table,
      range(0, n, (i) => `user_${i.toString(36)}-x`),
    ),
    0,
  );
  t.equal(table.handleOf('user_'), -1);
});

t.test('ids of the same length and hash bucket are told apart by their bytes', async (t) => {
  const table = new UserIdTable();
  const ids = ['ab', 'ba', 'aa', 'bb', 'a-', '-a', 'A_', '_A'];
  ids.forEach((id) => table.intern(id));
  t.same(
    ids.map((id) => table.idOf(table.handleOf(id))),
    ids,
  );
});

t.test('24-character lowercase hex ids are packed into 12 bytes and come back exactly', async (t) => {
  const table = new UserIdTable();
  const hex = [
    '0123456789abcdef01234567',
    'ffffffffffffffffffffffff',
    '000000000000000000000000',
    '5f1e0c2b9d8a7e6f5a4b3c2d',
  ];
  const others = [
    '0123456789ABCDEF01234567', // uppercase: another id, kept as bytes
    '0123456789abcdef0123456g', // not hex
    '0123456789abcdef0123456', // 23 characters
    '0123456789abcdef012345678', // 25 characters
    'a',
    'user_-X9',
  ];
  const all = [...hex, ...others];
  all.forEach((id) => table.intern(id));
  t.same(
    all.map((id) => table.idOf(table.handleOf(id))),
    all,
  );
  t.equal(new Set(all.map((id) => table.handleOf(id))).size, all.length, 'every id has its own handle');
  t.equal(table.handleOf('fffffffffffffffffffffffe'), -1);
});

t.test('hex ids cost about 12 bytes each plus the hash slots', async (t) => {
  const table = new UserIdTable();
  const before = table.byteLength;
  const n = 300_000;
  for (let i = 0; i < n; i++) table.intern(i.toString(16).padStart(24, '0'));
  const perId = (table.byteLength - before) / n;
  t.ok(perId < 12 + 4 / 0.5 + 12 * 0.25 + 1, `${perId.toFixed(1)} bytes per id (capacity)`);
  t.equal(
    table.idOf(table.handleOf((n - 1).toString(16).padStart(24, '0'))),
    (n - 1).toString(16).padStart(24, '0'),
  );
});

t.test('reserve makes room once: interning up to the count neither rehashes nor grows', async (t) => {
  const table = new UserIdTable();
  const n = 100_000;
  const hex = (i: number): string => (i * 2654435761).toString(16).padStart(24, '0');
  table.intern(hex(0));
  table.reserve(n);
  const reserved = table.byteLength;
  for (let i = 0; i < n; i++) table.intern(hex(i));
  t.equal(table.byteLength, reserved, 'no array grew');
  t.ok(reserved / n < 12 + 4 / 0.8 + 1, `${(reserved / n).toFixed(1)} bytes per id`);
  t.equal(misses(table, range(0, n, hex)), 0);
  table.reserve(10); // smaller than held: nothing changes
  t.equal(table.byteLength, reserved);
});

t.test(
  'interning with a growth of 2 (a replay) copies the keys a few times, not once per quarter',
  async (t) => {
    const n = 200_000;
    const hex = (i: number): string => (i * 2654435761).toString(16).padStart(24, '0');
    const growths = (growth?: number): number => {
      const table = new UserIdTable();
      let changes = 0;
      let bytes = table.byteLength;
      for (let i = 0; i < n; i++) {
        table.intern(hex(i), growth);
        if (table.byteLength !== bytes) changes++;
        bytes = table.byteLength;
      }
      t.equal(misses(table, range(0, n, hex)), 0, `every id found (growth ${growth ?? 'default'})`);
      return changes;
    };
    const ordinary = growths();
    const replay = growths(2);
    // From 2,048 slots to 200,000 ids: 7 doublings, 21 growths by 1.25.
    t.ok(replay <= 20, `${replay} growths by 2`);
    t.ok(replay * 2 < ordinary, `${replay} growths by 2 against ${ordinary} by default`);
  },
);

t.test('trim gives back unused capacity and every id stays found, before and after more', async (t) => {
  const table = new UserIdTable();
  const n = 150_000; // past the size from which a rehash buckets by home slot
  const id = (i: number): string => (i % 3 === 0 ? `player_${i}` : `f${i.toString(16).padStart(23, '0')}`);
  // Grown by 2 (as during a replay): up to half the slots unused.
  for (let i = 0; i < n; i++) table.intern(id(i), 2);
  const grownBytes = table.byteLength;
  table.trim();
  t.ok(table.byteLength < grownBytes, `${grownBytes} → ${table.byteLength} bytes`);
  const arena = (n / 3) * 13; // the non-hex ids' bytes, about 12-13 each
  t.ok((table.byteLength - arena) / n < 12 + 4 / 0.68 + 1, 'slots (keys) at least 68 % full');
  for (let i = n; i < n + 1000; i++) table.intern(id(i));
  t.equal(misses(table, range(0, n + 1000, id)), 0);
  t.ok(
    n / table.capacity >= 0.83,
    `trimmed to load ${(n / table.capacity).toFixed(3)}: near the 26 bytes of issue 15`,
  );
  t.equal(table.handleOf('player_x'), -1);
});

t.test('an id one character off lowercase hex is never packed as the hex id it resembles', async (t) => {
  const table = new UserIdTable();
  const base = '0123456789abcdef01234567';
  // Codes whose low 7 bits are a hex digit (0xb0 is '0' + 128), and the neighbours of each range.
  const bad = [0xb0, 0xb9, 0xe1, 0xe6, 0x80, 0xff, 0x2f, 0x3a, 0x60, 0x67, 0x41, 0x46, 0x2d, 0x5f];
  const first = table.intern(base);
  let wrong = 0;
  for (let at = 0; at < base.length; at++)
    for (const code of bad) {
      const id = base.slice(0, at) + String.fromCharCode(code) + base.slice(at + 1);
      const handle = table.intern(id);
      if (handle === table.handleOf(base) || table.idOf(handle) !== id || table.handleOf(id) !== handle)
        wrong++;
    }
  t.equal(wrong, 0, 'each variant has its own handle and comes back exactly');
  t.equal(table.size, 1 + base.length * bad.length);
  t.equal(table.idOf(table.handleOf(base)), base);
  t.equal(table.handleOf(base), first, 'no growth in 337 ids: the same handle');
});

t.test(
  'a running growth leaves the table at least 77 % full (every column keyed by slot pays 1 / load)',
  async (t) => {
    const table = new UserIdTable();
    let lowest = 1;
    let capacity = table.capacity;
    for (let i = 0; i < 100_000; i++) {
      table.intern((i * 2654435761 + 7).toString(16).padStart(24, '0'));
      if (table.capacity !== capacity) lowest = Math.min(lowest, table.size / table.capacity);
      capacity = table.capacity;
    }
    t.ok(lowest >= 0.77, `lowest load just after a growth ${lowest.toFixed(3)}`);
  },
);
