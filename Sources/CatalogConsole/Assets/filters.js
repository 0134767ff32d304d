// Filters: the collapsible grid of option cards. Selection and collapse are the server's
// shared filter state, followed live; a header shows the selection and folds the grid.
import { call } from "./rpc.js";
import { SharedFilter } from "./filterstate.js";
import { h, announce, roleNote, disableFor } from "./ui.js";
import { icon } from "./icons.js";

export function filtersScreen(root, session) {
  let filterId = new URLSearchParams(location.hash.split("?")[1] ?? "").get("filter") ?? "categories";
  let filter = null;
  let previous = null;
  const note = roleNote(session, "writer");

  const picker = h("select", { name: "filter", "aria-label": "Filter" });
  const status = h("p", { class: "live-status", role: "status", dataset: { watch: "connecting" } }, "Connecting…");
  const header = h("button", { type: "button", class: "filter-header", "aria-expanded": "true", "aria-controls": "filter-grid" });
  const grid = h("div", { class: "option-grid", id: "filter-grid", role: "group" });
  const body = h("section", { class: "filter-card", dataset: { state: "loading" }, "aria-busy": "true" }, header, grid);
  root.dataset.screen = "filters";
  root.append(
    h("div", { class: "screen-head" }, h("h2", {}, "Filters"), status),
    note ? h("p", { class: "role-note" }, `You can follow the filters but not change them: ${note.toLowerCase()}`) : "",
    h("div", { class: "toolbar" }, picker),
    body);
  disableFor(header, note);
  header.addEventListener("click", async () => {
    try {
      await filter.togglePresentation();
    } catch (error) {
      announce(error.message);
    }
  });

  function follow(id) {
    filter?.stop();
    previous = null;
    filterId = id;
    body.dataset.state = "loading";
    body.setAttribute("aria-busy", "true");
    filter = new SharedFilter(id, {
      onChange: render,
      onStatus: (watchStatus, error) => {
        status.dataset.watch = watchStatus;
        status.textContent = {
          connecting: "Connecting…",
          live: `Live · revision ${filter.state?.revision ?? "…"}`,
          reconnecting: `Reconnecting from revision ${filter.state?.revision ?? "…"}…`,
          failed: `Not following changes: ${error?.message}`,
        }[watchStatus];
      },
    });
    filter.start().catch((error) => {
      body.dataset.state = "error";
      body.removeAttribute("aria-busy");
      grid.replaceChildren(h("div", { class: "state error", role: "alert" }, h("p", { class: "message" }, error.message),
        h("button", { type: "button", class: "primary", onclick: () => follow(filterId) }, "Retry")));
    });
  }

  function render(state) {
    body.dataset.state = "loaded";
    body.removeAttribute("aria-busy");
    body.dataset.revision = state.revision;
    body.dataset.appliedAt = String(performance.timeOrigin + performance.now());
    const collapsed = state.presentation === "collapsed";
    const selected = state.options.find((option) => option.id === state.selectedId);
    header.setAttribute("aria-expanded", String(!collapsed));
    header.replaceChildren(
      h("span", { class: "filter-title" }, state.title),
      h("span", { class: "selection" }, selected ? selected.title : "All"),
      icon(collapsed ? "chevron.down" : "chevron.up", 18),
      h("span", { class: "visually-hidden" }, collapsed ? "(show options)" : "(hide options)"));
    grid.hidden = collapsed;
    grid.setAttribute("aria-label", `${state.title} options`);
    const card = (id, title, iconName) => {
      const pressed = (state.selectedId ?? null) === id;
      const button = h("button", {
        type: "button", class: "option", "aria-pressed": String(pressed), dataset: { optionId: id ?? "all" },
        onclick: async () => {
          try {
            await filter.select(id);
          } catch (error) {
            announce(error.message);
          }
        },
      }, icon(iconName ?? "square.grid.2x2", 28), h("span", {}, title));
      return disableFor(button, note);
    };
    grid.replaceChildren(card(null, "All", "square.grid.2x2"), ...state.options.map((o) => card(o.id, o.title, o.icon)));
    if (filter.watch && status.dataset.watch === "live") status.textContent = `Live · revision ${state.revision}`;
    if (previous) {
      if ((previous.selectedId ?? null) !== (state.selectedId ?? null)) announce(`${state.title}: ${selected ? selected.title : "All"} selected`);
      if (previous.presentation !== state.presentation) announce(`${state.title} ${collapsed ? "collapsed" : "expanded"}`);
    }
    previous = state;
  }

  picker.addEventListener("change", () => {
    history.replaceState(null, "", `#/filters?filter=${encodeURIComponent(picker.value)}`);
    follow(picker.value);
  });
  // Without the list (a failed call), the picker offers the filter shown, which reports its own error.
  const offer = (filters) => picker.replaceChildren(...filters.map((f) => h("option", { value: f.filterId, selected: f.filterId === filterId }, f.title)));
  call("catalog.v1.Filters", "List", {}).then((list) => offer(list.filters), () => offer([{ filterId, title: filterId }]));

  follow(filterId);
  return () => filter?.stop();
}
