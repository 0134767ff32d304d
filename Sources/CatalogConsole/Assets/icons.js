// The categories' icons, by the symbol names the apps use, drawn as inline SVG (24×24,
// stroked). A name with no drawing here shows its first letter.

const paths = {
  house: "M3 11 12 3l9 8M5 9.5V21h5v-6h4v6h5V9.5",
  car: "M3 16v-4l2-5h14l2 5v4zM3 16v2h3v-2M18 16v2h3v-2M3 12h18M7 14h1M16 14h1",
  gamecontroller: "M6 8h12a4 4 0 0 1 4 4v2a3 3 0 0 1-5.4 1.8L15 14H9l-1.6 1.8A3 3 0 0 1 2 14v-2a4 4 0 0 1 4-4zM7 10v4M5 12h4M16 11h.01M18 13h.01",
  sportscourt: "M3 5h18v14H3zM12 5v14M12 9a3 3 0 1 1 0 6 3 3 0 0 1 0-6M3 9h3v6H3M21 9h-3v6h3",
  sparkles: "M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8zM18 15l.9 2.1L21 18l-2.1.9L18 21l-.9-2.1L15 18l2.1-.9z",
  "chevron.left.forwardslash.chevron.right": "M8 7l-5 5 5 5M16 7l5 5-5 5M14 4l-4 16",
  "chart.bar": "M4 20V10h4v10zM10 20V4h4v16zM16 20v-7h4v7zM3 20h18",
  paintbrush: "M18 3l3 3-9 9-3-3zM9 12l3 3c0 3-2 6-7 6 1-1 1-3 1-4a3 3 0 0 1 3-5z",
  "person.3": "M12 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 11a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM18 11a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM7 21v-3a5 5 0 0 1 10 0v3M2 20v-2a4 4 0 0 1 4-4M22 20v-2a4 4 0 0 0-4-4",
  star: "M12 3l2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9z",
  heart: "M12 20s-8-5-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 9c0 6-8 11-8 11z",
  book: "M4 4h6a2 2 0 0 1 2 2v14a2 2 0 0 0-2-2H4zM20 4h-6a2 2 0 0 0-2 2v14a2 2 0 0 1 2-2h6z",
  tag: "M3 12V3h9l9 9-9 9zM7.5 7.5h.01",
  photo: "M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15.5 8.5h.01",
  "chevron.down": "M6 9l6 6 6-6",
  "chevron.up": "M6 15l6-6 6 6",
  "arrow.up": "M12 19V5M6 11l6-6 6 6",
  "arrow.down": "M12 5v14M6 13l6 6 6-6",
  pencil: "M4 20l1-5L16 4l4 4L9 19zM14 6l4 4",
  trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6",
  plus: "M12 5v14M5 12h14",
  "square.grid.2x2": "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z",
};

/** The category icons drawn here, for the icon field's suggestions. */
export const iconNames = [
  "book", "car", "chart.bar", "chevron.left.forwardslash.chevron.right", "gamecontroller", "heart", "house",
  "paintbrush", "person.3", "photo", "sparkles", "sportscourt", "square.grid.2x2", "star", "tag",
];

const svgNS = "http://www.w3.org/2000/svg";

/** An icon for `name`, hidden from screen readers: its control carries the name. */
export function icon(name, size = 20) {
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", size);
  svg.setAttribute("height", size);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.classList.add("icon");
  const drawing = paths[name];
  if (drawing) {
    const path = document.createElementNS(svgNS, "path");
    path.setAttribute("d", drawing);
    svg.append(path);
  } else {
    const text = document.createElementNS(svgNS, "text");
    text.setAttribute("x", "12");
    text.setAttribute("y", "17");
    text.setAttribute("text-anchor", "middle");
    text.textContent = (name ?? "?").slice(0, 1).toUpperCase();
    svg.append(text);
  }
  return svg;
}
