/** Step 4's wrk scripts: requests picked at random from given paths and tokens. */
import type { Figures } from '@tessera/testkit';

const luaString = (s: string): string => JSON.stringify(s);

/** wrk requests picked at random from `targets` (path and token each). */
export function wrkScript(targets: readonly { path: string; token: string }[]): {
  setup: string;
  request: string;
} {
  const rows = targets.map((t) => `{${luaString(t.path)},${luaString(`Bearer ${t.token}`)}}`).join(',\n');
  return {
    setup: `targets = {\n${rows}\n}\nmath.randomseed(42)\n`,
    request: `request = function()
  local t = targets[math.random(#targets)]
  return wrk.format("GET", t[1], { ["authorization"] = t[2] })
end`,
  };
}

export function checkWrk(title: string, figures: Figures): Figures {
  if (figures.errors > 0) throw new Error(`${title}: ${figures.errors} errors`);
  if (figures.requests === 0) throw new Error(`${title}: no requests`);
  return figures;
}
