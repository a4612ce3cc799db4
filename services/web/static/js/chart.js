// A player's rating over time as an inline SVG line chart (no library; the page's CSP allows no
// inline style, and SVG presentation attributes are not styles). Accessible: the SVG is an image
// named by its <title> and described by its <desc> (start, now, highest, lowest), and the figures
// themselves follow in a table (profile.js). The scale's arithmetic is pure and tested in node.

import { formatDate, t } from "./i18n.js";
import { formatRating } from "./playertext.js";

const SVG = "http://www.w3.org/2000/svg";

/** Round tick values covering [low, high]: about `count` of them, at 1, 2, 5 × 10^n steps (pure). */
export function ticks(low, high, count = 4) {
  if (!(high > low)) {
    const pad = Math.max(10, Math.abs(low) * 0.01);
    return ticks(low - pad, high + pad, count);
  }
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const first = Math.floor(low / step) * step;
  const out = [];
  for (let v = first; v <= high + step * 0.5; v += step) out.push(Math.round(v));
  if (out[out.length - 1] < high) out.push(out[out.length - 1] + step);
  return out;
}

/** Where the points go in a box (pure): {xs, ys, yTicks, scaleY}. `values`: the ratings in order. */
export function layout(values, { width, height, left, right, top, bottom }) {
  const yTicks = ticks(Math.min(...values), Math.max(...values));
  const low = yTicks[0];
  const high = yTicks[yTicks.length - 1];
  const scaleY = (v) => top + (height - top - bottom) * (1 - (v - low) / (high - low));
  const span = Math.max(1, values.length - 1);
  const xs = values.map((_, i) => left + ((width - left - right) * (values.length === 1 ? 0.5 : i / span)));
  return { xs, ys: values.map(scaleY), yTicks, scaleY };
}

/** A sentence describing the series: "From 1500 to 1562 over 12 games; highest 1580, lowest 1490." (pure) */
export function describeSeries(points) {
  if (!points.length) return t("players.chart.empty");
  const values = points.map((p) => p.rating);
  return t("players.chart.desc", { from: formatRating(values[0]), to: formatRating(values[values.length - 1]), count: points.length - 1, high: formatRating(Math.max(...values)), low: formatRating(Math.min(...values)) });
}

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** The x axis's labels: dates, or times of day when every game was on one day. */
function dateLabel(points) {
  const days = new Set(points.filter((p) => p.at).map((p) => new Date(p.at).toDateString()));
  return days.size > 1
    ? (iso) => formatDate(iso, { day: "numeric", month: "short" })
    : (iso) => formatDate(iso, { hour: "2-digit", minute: "2-digit" });
}

/**
 * The chart: `points` [{rating, at (ISO time; null for the start)}] oldest first; `id` makes its
 * title's and description's ids unique; `narrow` draws it for a phone (fewer, larger labels).
 */
export function ratingChart(points, { id, title, narrow = false }) {
  const width = narrow ? 340 : 720;
  const height = narrow ? 200 : 240;
  const box = { width, height, left: narrow ? 40 : 48, right: narrow ? 14 : 24, top: 16, bottom: 28 };
  const values = points.map((p) => p.rating);
  const { xs, ys, yTicks, scaleY } = layout(values, box);
  const base = height - box.bottom;
  const line = xs.map((x, i) => `${i ? "L" : "M"}${x.toFixed(1)},${ys[i].toFixed(1)}`).join(" ");
  const area = `${line} L${xs[xs.length - 1].toFixed(1)},${base} L${xs[0].toFixed(1)},${base} Z`;
  const gradient = `${id}-fill`;
  const last = values.length - 1;
  const up = values[last] >= values[0];
  const dated = points.map((p, i) => [p, i]).filter(([p]) => p.at);
  const byTime = dateLabel(points);
  const sameLabels = dated.length > 1 && byTime(dated[0][0].at) === byTime(dated[dated.length - 1][0].at);
  const shortDate = (at, i) => (sameLabels ? t("players.chart.gameNo", { number: i }) : byTime(at)); // all in one minute: count the games
  const labelAt = dated.length > 1 ? [dated[0], dated[dated.length - 1]] : dated;
  if (!narrow && dated.length > 4) labelAt.splice(1, 0, dated[Math.floor(dated.length / 2)]);
  return svg(
    "svg",
    { class: "rating-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": `${id}-title ${id}-desc`, "data-testid": "rating-chart", "data-points": String(points.length) },
    svg("title", { id: `${id}-title` }, title),
    svg("desc", { id: `${id}-desc` }, describeSeries(points)),
    svg(
      "defs",
      {},
      svg("linearGradient", { id: gradient, x1: 0, y1: 0, x2: 0, y2: 1 }, svg("stop", { offset: "0%", "stop-color": up ? "#22c55e" : "#f97316", "stop-opacity": 0.35 }), svg("stop", { offset: "100%", "stop-color": up ? "#22c55e" : "#f97316", "stop-opacity": 0 })),
    ),
    svg(
      "g",
      { class: "chart-grid" },
      yTicks.map((v) =>
        svg("g", {}, svg("line", { x1: box.left, x2: width - box.right, y1: scaleY(v), y2: scaleY(v) }), svg("text", { x: box.left - 6, y: scaleY(v) + 4, "text-anchor": "end" }, formatRating(v))),
      ),
    ),
    svg(
      "g",
      { class: "chart-dates" },
      labelAt.map(([p, i], n) => svg("text", { x: xs[i], y: height - 8, "text-anchor": n === labelAt.length - 1 && i === xs.length - 1 ? "end" : n === 0 && labelAt.length > 1 ? "start" : "middle" }, shortDate(p.at, i))),
    ),
    svg("path", { class: "chart-area", d: area, fill: `url(#${gradient})` }),
    svg("path", { class: `chart-line ${up ? "up" : "down"}`, d: line }),
    points.length <= 60 ? svg("g", { class: "chart-dots" }, xs.map((x, i) => svg("circle", { cx: x, cy: ys[i], r: i === last ? 5 : 3, class: i === last ? "last" : null }))) : svg("circle", { class: "chart-dots last", cx: xs[last], cy: ys[last], r: 5 }),
    svg("text", { class: "chart-now", x: Math.min(xs[last], width - box.right), y: Math.max(12, ys[last] - 10), "text-anchor": "end" }, formatRating(values[last])),
  );
}
