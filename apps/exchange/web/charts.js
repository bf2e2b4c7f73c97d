// The depth chart and the candles as SVG. Pure geometry first (numbers in, points out), then a
// few lines that turn it into elements. SVG presentation comes from classes in exchange.css: the
// page's CSP forbids inline style attributes.

const SVG = 'http://www.w3.org/2000/svg';
const W = 400;
const H = 220;
const PAD = { left: 44, right: 8, top: 8, bottom: 20 };

/**
 * The cumulative depth of each side as steps from the best price outwards.
 * @param {{price: number, quantity: number}[]} bids best (highest) first
 * @param {{price: number, quantity: number}[]} asks best (lowest) first
 */
export function depthSteps(bids, asks) {
  const side = (levels) => {
    let total = 0;
    return levels.map((level) => ({ price: level.price, total: (total += level.quantity) }));
  };
  return { bids: side(bids), asks: side(asks) };
}

function scale(min, max, from, to) {
  const span = max - min || 1;
  return (value) => from + ((value - min) / span) * (to - from);
}

function node(tag, attrs, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

function frame(svg, yMin, yMax, y, label) {
  const desc = svg.querySelector('desc');
  svg.replaceChildren(...(desc ? [desc] : []));
  svg.append(
    node('line', { class: 'axis', x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom }),
    node('line', { class: 'axis', x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom }),
    node('text', { x: PAD.left - 4, y: y(yMax) + 4, 'text-anchor': 'end' }, label(yMax)),
    node('text', { x: PAD.left - 4, y: y(yMin), 'text-anchor': 'end' }, label(yMin)),
  );
}

/** Draws the depth chart of a book into `svg`. */
export function drawDepth(svg, bids, asks) {
  const steps = depthSteps(bids, asks);
  const all = [...steps.bids, ...steps.asks];
  if (all.length === 0) {
    frame(svg, 0, 1, scale(0, 1, H - PAD.bottom, PAD.top), () => '');
    svg.append(node('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle' }, 'The book is empty'));
    return;
  }
  const prices = all.map((s) => s.price);
  // A margin on each side, so that a side of one level still shows as an area.
  const margin = Math.max(1, Math.round((Math.max(...prices) - Math.min(...prices)) * 0.1));
  const pMin = Math.min(...prices) - margin;
  const pMax = Math.max(...prices) + margin;
  const tMax = Math.max(...all.map((s) => s.total));
  const x = scale(pMin, pMax, PAD.left, W - PAD.right);
  const y = scale(0, tMax, H - PAD.bottom, PAD.top);
  frame(svg, 0, tMax, y, String);
  const area = (list, cls, edge) => {
    if (list.length === 0) return;
    const base = y(0);
    let d = `M${x(list[0].price)},${base}`;
    let height = base;
    for (const step of list) {
      d += ` L${x(step.price)},${height} L${x(step.price)},${y(step.total)}`;
      height = y(step.total);
    }
    d += ` L${x(edge)},${height} L${x(edge)},${base} Z`;
    svg.append(node('path', { class: cls, d }));
  };
  area(steps.bids, 'bid-area', pMin);
  area(steps.asks, 'ask-area', pMax);
  svg.append(
    node('text', { x: PAD.left, y: H - 6 }, String(pMin)),
    node('text', { x: W - PAD.right, y: H - 6, 'text-anchor': 'end' }, String(pMax)),
  );
}

/**
 * Draws candles (oldest first) into `svg`: a wick from low to high and a body from open to close.
 * @param {{open: number, close: number, high: number, low: number, timestamp: number}[]} candles
 */
export function drawCandles(svg, candles) {
  if (candles.length === 0) {
    frame(svg, 0, 1, scale(0, 1, H - PAD.bottom, PAD.top), () => '');
    svg.append(node('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle' }, 'No trades in this window'));
    return;
  }
  // Room above and below, so that a window of one price still shows its candles.
  const low = Math.min(...candles.map((c) => c.low)) - 1;
  const high = Math.max(...candles.map((c) => c.high)) + 1;
  const y = scale(low, high, H - PAD.bottom, PAD.top);
  frame(svg, low, high, y, String);
  const slot = (W - PAD.left - PAD.right) / Math.max(candles.length, 20);
  candles.forEach((c, i) => {
    const cx = PAD.left + slot * (i + 0.5);
    const cls = c.close >= c.open ? 'up' : 'down';
    const top = y(Math.max(c.open, c.close));
    const body = Math.max(1, y(Math.min(c.open, c.close)) - top);
    svg.append(
      node('line', { class: cls, x1: cx, x2: cx, y1: y(c.high), y2: y(c.low) }),
      node('rect', { class: cls, x: cx - slot * 0.35, y: top, width: slot * 0.7, height: body }),
    );
  });
}
