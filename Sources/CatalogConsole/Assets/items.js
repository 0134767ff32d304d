// Items: the formations list under a row of category chips. The selected chip is the shared
// `categories` filter's selection, so it follows every other client live.
import { call } from "./rpc.js";
import { SharedFilter } from "./filterstate.js";
import { h, announce, formatPrice, roleNote, disableFor } from "./ui.js";
import { icon } from "./icons.js";

const pageSize = 20;
const sorts = [
  { label: "Newest", sort: "createdAt", descending: true },
  { label: "Oldest", sort: "createdAt", descending: false },
  { label: "Title A–Z", sort: "title", descending: false },
  { label: "Title Z–A", sort: "title", descending: true },
  { label: "Price, lowest first", sort: "price", descending: false },
  { label: "Price, highest first", sort: "price", descending: true },
];

let firstRender = true;

export function itemsScreen(root, session) {
  const colours = new Map();
  let query = "";
  let sortIndex = 2;
  let pageTokens = [undefined];
  let loadCount = 0;
  let searchTimer = null;

  const status = h("p", { class: "live-status", role: "status", dataset: { watch: "connecting" } }, "Connecting…");
  const chips = h("div", { class: "chips", role: "group", "aria-label": "Categories" });
  const search = h("input", { type: "search", name: "query", placeholder: "Search titles and summaries", "aria-label": "Search items" });
  const sortSelect = h("select", { name: "sort", "aria-label": "Sort items" },
    sorts.map((entry, index) => h("option", { value: index, selected: index === sortIndex }, entry.label)));
  const results = h("section", { class: "results", "aria-label": "Items", dataset: { state: "loading" } });
  const pager = h("nav", { class: "pager", "aria-label": "Pages" });
  const note = roleNote(session, "writer");
  root.dataset.screen = "items";
  root.append(
    h("div", { class: "screen-head" }, h("h2", {}, "Items"), status),
    note ? h("p", { class: "role-note" }, `You can look but not choose the shared category: ${note.toLowerCase()}`) : "",
    chips,
    h("div", { class: "toolbar" }, search, sortSelect),
    results, pager);
  showLoading();

  const filter = new SharedFilter("categories", {
    onChange: (state) => {
      renderChips(state);
      if (previous && previous.selectedId !== state.selectedId) {
        announce(state.selectedId === undefined ? "Showing all categories" : `Showing ${categoryTitle(state)}`);
      }
      previous = state;
      if (state.selectedId !== shownCategory) {
        pageTokens = [undefined];
        load();
      }
    },
    onStatus: (watchStatus, error) => {
      status.dataset.watch = watchStatus;
      status.textContent = {
        connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…",
        failed: `Not following changes: ${error?.message}`,
      }[watchStatus];
    },
  });
  /** The category of the list shown, and the filter state before the newest. */
  let shownCategory = undefined;
  let previous = null;

  async function begin() {
    showLoading();
    try {
      // The colours first, so that the chips are drawn once, in colour.
      const categories = call("catalog.v1.Categories", "List", {}).then((answer) => {
        for (const category of answer.categories) colours.set(category.id, category.color);
      });
      await Promise.all([categories, filter.start(categories)]);
      if (loadCount === 0) await load();
    } catch (error) {
      showError(error, begin);
    }
  }

  function renderChips(state) {
    if (!state) return;
    const selected = state.selectedId ?? null;
    const chip = (id, title, iconName) => {
      const pressed = id === selected;
      const button = h("button", {
        type: "button", class: "chip", "aria-pressed": String(pressed), dataset: { optionId: id ?? "all" },
        onclick: () => choose(id),
      }, iconName ? icon(iconName, 16) : null, title);
      const colour = id === null ? "#3F51B5" : colours.get(id) ?? "#607D8B";
      button.style.setProperty("--chip-colour", colour);
      return disableFor(button, note);
    };
    chips.replaceChildren(chip(null, "All"), ...state.options.map((option) => chip(option.id, option.title, option.icon)));
    chips.dataset.revision = state.revision;
  }

  async function choose(id) {
    try {
      await filter.select(id);
    } catch (error) {
      announce(error.message);
      status.textContent = error.message;
    }
  }

  async function load() {
    const loading = ++loadCount;
    const state = filter.state;
    const category = state?.selectedId;
    const request = { pageSize, sort: sorts[sortIndex].sort, descending: sorts[sortIndex].descending };
    if (category !== undefined) request.categoryId = category;
    if (query) request.query = query;
    const token = pageTokens[pageTokens.length - 1];
    if (token) request.pageToken = token;
    if (results.dataset.state !== "loaded") showLoading();
    else results.setAttribute("aria-busy", "true");
    try {
      const page = await call("catalog.v1.Catalog", "ListItems", request);
      if (loading !== loadCount) return;
      shownCategory = category;
      render(page, state);
    } catch (error) {
      if (loading === loadCount) showError(error, load);
    }
  }

  function categoryTitle(state) {
    return state?.options.find((option) => option.id === state.selectedId)?.title;
  }

  function render(page, state) {
    results.removeAttribute("aria-busy");
    const first = (pageTokens.length - 1) * pageSize;
    if (page.items.length === 0) {
      const title = categoryTitle(state);
      results.dataset.state = "empty";
      const message = query ? `No item matches “${query}”.` : title ? `No formation in ${title} yet.` : "The catalog has no item yet.";
      results.replaceChildren(h("div", { class: "state empty" }, icon("square.grid.2x2", 40), h("p", {}, message)));
      pager.replaceChildren();
      announce(message);
    } else {
      results.dataset.state = "loaded";
      results.replaceChildren(h("ul", { class: "item-list" }, page.items.map(itemRow)));
      const previous = h("button", { type: "button", disabled: pageTokens.length === 1, onclick: () => { pageTokens.pop(); load(); } }, "Previous");
      const next = h("button", { type: "button", disabled: !page.nextPageToken, onclick: () => { pageTokens.push(page.nextPageToken); load(); } }, "Next");
      pager.replaceChildren(previous, h("span", { class: "range" }, `${first + 1}–${first + page.items.length} of ${page.totalCount}`), next);
    }
    if (firstRender) {
      firstRender = false;
      performance.mark("items-rendered");
    }
  }

  function itemRow(item) {
    const colour = colours.get(item.categoryId);
    const dot = h("span", { class: "dot", "aria-hidden": "true" });
    if (colour) dot.style.setProperty("--dot-colour", colour);
    return h("li", { class: "item", dataset: { itemId: item.id } },
      h("div", { class: "item-main" }, dot, h("h3", {}, item.title)),
      h("p", { class: "meta" }, [item.level, item.duration].filter(Boolean).join(" · ")),
      h("p", { class: "price" }, formatPrice(item.price)));
  }

  function showLoading() {
    results.dataset.state = "loading";
    results.setAttribute("aria-busy", "true");
    results.replaceChildren(h("div", { class: "skeleton-list", "aria-label": "Loading items" },
      h("div", { class: "skeleton" }), h("div", { class: "skeleton" }), h("div", { class: "skeleton" })));
  }

  function showError(error, retry) {
    results.dataset.state = "error";
    results.removeAttribute("aria-busy");
    pager.replaceChildren();
    const button = h("button", { type: "button", class: "primary", onclick: retry }, "Retry");
    results.replaceChildren(h("div", { class: "state error", role: "alert" },
      h("p", { class: "message" }, error.message), button));
  }

  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      query = search.value.trim();
      pageTokens = [undefined];
      load();
    }, 200);
  });
  sortSelect.addEventListener("change", () => {
    sortIndex = Number(sortSelect.value);
    pageTokens = [undefined];
    load();
  });

  begin();
  return () => {
    filter.stop();
    clearTimeout(searchTimer);
    loadCount++;
  };
}
