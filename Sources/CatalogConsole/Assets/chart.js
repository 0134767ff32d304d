// The categories' statistics as a bar chart drawn with SVG: one bar per category, its length
// the category's item count, with its name and count beside it.
import { h } from "./ui.js";

const svgNS = "http://www.w3.org/2000/svg";

function svg(tag, attributes, text) {
  const element = document.createElementNS(svgNS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

/** The elements of the statistics section for a Categories/Stats answer. */
export function statsChart(stats) {
  const rows = stats.categories;
  const barHeight = 22;
  const gap = 8;
  const labelWidth = 150;
  const width = 520;
  const height = Math.max(rows.length, 1) * (barHeight + gap);
  const most = Math.max(1, ...rows.map((row) => row.itemCount));
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "bar-chart", role: "img", "aria-labelledby": "stats-title stats-summary",
    preserveAspectRatio: "xMinYMin meet",
  });
  rows.forEach((row, index) => {
    const y = index * (barHeight + gap);
    const length = ((width - labelWidth - 60) * row.itemCount) / most;
    const group = svg("g", { class: "bar", "data-category-id": row.id });
    group.append(
      svg("title", {}, `${row.name}: ${row.itemCount} items (${Math.round(row.share * 100)} %)`),
      svg("text", { x: labelWidth - 8, y: y + barHeight * 0.7, "text-anchor": "end", class: "bar-label" }, row.name),
      svg("rect", { x: labelWidth, y, width: Math.max(length, 1), height: barHeight, rx: 3, class: "bar-rect" }),
      svg("text", { x: labelWidth + length + 6, y: y + barHeight * 0.7, class: "bar-value" }, String(row.itemCount)));
    chart.append(group);
  });
  const summary = `${stats.categoryCount} categories, ${stats.itemCount} items, ${stats.uncategorizedItemCount} without a category, `
    + `${stats.emptyCategoryCount} empty categories.`;
  return [h("h3", { id: "stats-title" }, "Items per category"), chart, h("p", { id: "stats-summary" }, summary)];
}
