// Categories: every management feature of the contract. Each write goes to the server, and
// the screen shows what the server then lists: nothing changes here that it did not accept.
import { call } from "./rpc.js";
import { h, announce, openDialog, field, showFieldError, clearFieldErrors, roleNote, disableFor, formatDate } from "./ui.js";
import { icon, iconNames } from "./icons.js";
import { statsChart } from "./chart.js";

/** The palette's colours by name, for screen readers (the server's palette, contract §3). */
const colourNames = {
  "#E91E63": "pink", "#F44336": "red", "#9C27B0": "purple", "#4CAF50": "green", "#2196F3": "blue", "#FF9800": "orange",
  "#795548": "brown", "#607D8B": "blue grey", "#009688": "teal", "#FFEB3B": "yellow", "#3F51B5": "indigo", "#FF5722": "deep orange",
};

const sortLabels = { position: "Position", name: "Name", itemCount: "Item count", createdAt: "Date created" };

/** `n` and the noun for it: "1 item", "8 items". */
function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Wires a dialog's write of `Categories/method` that is checked by a dry run first: returns
 *  `dryRun()`, which shows `describe(answer)` in `counts` and enables `confirm`, or shows the
 *  server's refusal and disables it (an answer overtaken by a newer check is dropped);
 *  submitting `form` makes the write with `request()` and closes the dialog with `true`. */
function checkedWrite({ form, counts, confirm, close, method, request, describe }) {
  let checking = 0;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await call("catalog.v1.Categories", method, request());
      close(true);
    } catch (error) {
      showFieldError(form, error);
    }
  });
  return async () => {
    const check = ++checking;
    counts.dataset.counts = "pending";
    clearFieldErrors(form);
    try {
      const answer = await call("catalog.v1.Categories", method, { ...request(), dryRun: true });
      if (check !== checking) return;
      counts.textContent = describe(answer);
      counts.dataset.counts = "ready";
      confirm.disabled = false;
    } catch (error) {
      if (check !== checking) return;
      counts.textContent = "";
      counts.dataset.counts = "refused";
      confirm.disabled = true;
      showFieldError(form, error);
    }
  };
}

export function categoriesScreen(root, session) {
  const note = roleNote(session, "admin");
  const view = { query: "", sort: "position", descending: false, hideEmpty: false };
  let categories = [];
  let palette = [];
  let loadCount = 0;
  let searchTimer = null;
  const selected = new Set();

  const search = h("input", { type: "search", name: "query", placeholder: "Search categories", "aria-label": "Search categories" });
  const sort = h("select", { name: "sort", "aria-label": "Sort categories" },
    Object.entries(sortLabels).map(([value, label]) => h("option", { value }, label)));
  const descending = h("input", { type: "checkbox", name: "descending", id: "categories-descending" });
  const hideEmpty = h("input", { type: "checkbox", name: "hideEmpty", id: "categories-hide-empty" });
  const list = h("section", { class: "results", "aria-label": "Categories", dataset: { state: "loading" }, "aria-busy": "true" });
  const bulk = h("div", { class: "bulk", role: "group", "aria-label": "Selected categories" });
  const stats = h("section", { class: "stats", "aria-labelledby": "stats-title" });
  root.dataset.screen = "categories";
  root.append(
    h("div", { class: "screen-head" }, h("h2", {}, "Categories")),
    note ? h("p", { class: "role-note" }, `You can look but not change: ${note.toLowerCase()}`) : "",
    createForm(),
    h("div", { class: "toolbar" }, search, sort,
      h("label", { class: "check", for: descending.id }, descending, "Descending"),
      h("label", { class: "check", for: hideEmpty.id }, hideEmpty, "Hide empty")),
    bulk, list, stats);

  // MARK: Loading

  async function load(focusAfter) {
    const loading = ++loadCount;
    const request = { sort: view.sort, descending: view.descending, hideEmpty: view.hideEmpty };
    if (view.query) request.query = view.query;
    list.setAttribute("aria-busy", "true");
    try {
      const [answer, summary] = await Promise.all([call("catalog.v1.Categories", "List", request), call("catalog.v1.Categories", "Stats", {})]);
      if (loading !== loadCount) return;
      categories = answer.categories;
      for (const id of [...selected]) if (!categories.some((c) => c.id === id)) selected.delete(id);
      renderList();
      stats.replaceChildren(...statsChart(summary));
      if (focusAfter) document.querySelector(focusAfter)?.focus();
    } catch (error) {
      if (loading !== loadCount) return;
      list.dataset.state = "error";
      list.removeAttribute("aria-busy");
      list.replaceChildren(h("div", { class: "state error", role: "alert" }, h("p", { class: "message" }, error.message),
        h("button", { type: "button", class: "primary", onclick: () => load() }, "Retry")));
    }
  }

  function renderList() {
    list.removeAttribute("aria-busy");
    if (categories.length === 0) {
      list.dataset.state = "empty";
      list.replaceChildren(h("div", { class: "state empty" }, h("p", {}, view.query ? `No category matches “${view.query}”.` : "No category to show.")));
    } else {
      list.dataset.state = "loaded";
      list.replaceChildren(h("ul", { class: "category-list" }, categories.map(row)));
    }
    renderBulk();
  }

  function row(category) {
    const inOrder = view.sort === "position" && !view.query && !view.hideEmpty;
    const orderNote = note ?? (inOrder ? null : "Reordering works in position order, with no search and nothing hidden.");
    const check = h("input", {
      type: "checkbox", checked: selected.has(category.id), "aria-label": `Select ${category.name}`,
      onchange: () => { check.checked ? selected.add(category.id) : selected.delete(category.id); renderBulk(); },
    });
    const swatch = h("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.setProperty("--swatch", category.color);
    const button = (action, label, iconName, onclick, why) =>
      disableFor(h("button", { type: "button", class: "icon-button", "aria-label": `${label} ${category.name}`, title: `${label} ${category.name}`, dataset: { action }, onclick },
        icon(iconName, 18)), why);
    return h("li", { class: "category", dataset: { categoryId: category.id } },
      check, swatch, icon(category.icon ?? category.name, 20),
      h("div", { class: "category-name" },
        h("span", { class: "name" }, category.name),
        category.isDefault ? h("span", { class: "badge" }, "default") : null,
        h("span", { class: "meta" }, `${count(category.itemCount, "item")} · created ${formatDate(category.createdAt)}`)),
      h("div", { class: "row-actions" },
        button("up", "Move up", "arrow.up", () => move(category, "up"), orderNote),
        button("down", "Move down", "arrow.down", () => move(category, "down"), orderNote),
        button("edit", "Edit", "pencil", () => edit(category), note),
        button("delete", "Delete", "trash", () => remove(category), note)));
  }

  function renderBulk() {
    const chosen = categories.filter((c) => selected.has(c.id));
    const mergeButton = h("button", { type: "button", onclick: () => merge(chosen) }, `Merge selected (${chosen.length})`);
    const assignButton = h("button", { type: "button", onclick: assignItems }, "Assign items…");
    disableFor(mergeButton, note ?? (chosen.length === 0 ? "Select the categories to merge first." : null));
    disableFor(assignButton, note);
    bulk.replaceChildren(mergeButton, assignButton);
  }

  // MARK: Create and edit

  function colourPicker(name, current) {
    const group = h("fieldset", { class: "palette" }, h("legend", {}, "Colour"));
    for (const colour of palette) {
      const id = `${name}-${colour.slice(1)}`;
      const label = colourNames[colour] ? `${colourNames[colour]} (${colour})` : colour;
      const radio = h("input", { type: "radio", name, value: colour, id, checked: colour === current, "aria-label": label });
      const choice = h("label", { for: id, class: "swatch-choice", title: label }, radio, h("span", { class: "swatch", "aria-hidden": "true" }));
      choice.lastChild.style.setProperty("--swatch", colour);
      group.append(choice);
    }
    return group;
  }

  function iconInput(value) {
    return h("input", { name: "icon", list: "category-icons", value: value ?? "", autocomplete: "off", spellcheck: "false" });
  }

  function createForm() {
    const name = h("input", { name: "name", autocomplete: "off", required: true, maxlength: "200" });
    const colours = h("div", { class: "palette-slot" });
    const form = h("form", { class: "create", "aria-labelledby": "create-title", novalidate: true },
      h("h3", { id: "create-title" }, "New category"),
      h("div", { class: "form-row" }, field("Name", name), field("Icon", iconInput(), "A symbol name, e.g. star")),
      colours,
      h("datalist", { id: "category-icons" }, iconNames.map((n) => h("option", { value: n }))),
      h("p", { class: "form-error", role: "alert", hidden: true }),
      disableFor(h("button", { type: "submit", class: "primary" }, "Create"), note));
    // Without the palette (a failed call), no colour is offered and the server picks one.
    call("catalog.v1.Categories", "Palette", {}).then((answer) => {
      palette = answer.colors;
      colours.replaceChildren(colourPicker("color", null));
    }, () => colours.replaceChildren(h("p", { class: "hint" }, "The palette could not be loaded: the server will pick a colour.")));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (note) return;
      const data = new FormData(form);
      const request = { name: data.get("name") };
      if (data.get("color")) request.color = data.get("color");
      if (data.get("icon")) request.icon = data.get("icon");
      try {
        const created = await call("catalog.v1.Categories", "Create", request);
        clearFieldErrors(form);
        form.reset();
        announce(`Created ${created.name}`);
        await load();
      } catch (error) {
        showFieldError(form, error);
      }
    });
    return form;
  }

  async function edit(category) {
    const saved = await openDialog(`Edit ${category.name}`, (close) => {
      const name = h("input", { name: "name", value: category.name, autocomplete: "off", required: true });
      const isDefault = h("input", { type: "checkbox", name: "isDefault", checked: category.isDefault, id: "edit-default" });
      const form = h("form", { novalidate: true },
        field("Name", name), field("Icon", iconInput(category.icon)), colourPicker("color", category.color),
        h("label", { class: "check", for: isDefault.id }, isDefault, "Default category"),
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("div", { class: "dialog-actions" },
          h("button", { type: "button", onclick: () => close(false) }, "Cancel"),
          h("button", { type: "submit", class: "primary" }, "Save")));
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const data = new FormData(form);
        const request = { id: category.id, expectedRevision: category.revision, name: data.get("name"), isDefault: isDefault.checked };
        if (data.get("color")) request.color = data.get("color");
        request.icon = data.get("icon") || null;
        try {
          await call("catalog.v1.Categories", "Update", request);
          close(true);
        } catch (error) {
          showFieldError(form, error);
        }
      });
      setTimeout(() => name.focus());
      return form;
    });
    if (saved) {
      announce(`Saved ${category.name}`);
      await load(`[data-category-id="${category.id}"] [data-action="edit"]`);
    }
  }

  // MARK: Order

  async function move(category, direction) {
    try {
      await call("catalog.v1.Categories", "Move", { id: category.id, direction });
      announce(`Moved ${category.name} ${direction}`);
      await load(`[data-category-id="${category.id}"] [data-action="${direction}"]`);
    } catch (error) {
      announce(error.message);
      await load(`[data-category-id="${category.id}"] [data-action="${direction}"]`);
    }
  }

  // MARK: Delete, merge, assign

  function otherCategories(excluded) {
    return categories.filter((c) => !excluded.includes(c.id));
  }

  function countsLine(counts) {
    const parts = [];
    if (counts.deletedItems) parts.push(`deletes ${count(counts.deletedItems, "item")}`);
    if (counts.movedItems) parts.push(`moves ${count(counts.movedItems, "item")}`);
    if (counts.unassignedItems) parts.push(`leaves ${count(counts.unassignedItems, "item")} without a category`);
    return parts.length ? `This ${parts.join(", ")}.` : "No item is affected.";
  }

  async function remove(category) {
    const deleted = await openDialog(`Delete ${category.name}?`, (close) => {
      const choices = [
        ["reject", "Only if it holds no item"], ["unassign", "Keep its items, without a category"],
        ["move", "Move its items to another category"], ["delete", "Delete its items too"],
      ];
      const moveTo = h("select", { name: "moveTo", "aria-label": "Move the items to" },
        otherCategories([category.id]).map((c) => h("option", { value: c.id }, c.name)));
      const counts = h("p", { class: "counts", role: "status", dataset: { counts: "pending" } }, "Checking…");
      const confirm = h("button", { type: "submit", class: "danger", disabled: true }, "Delete");
      const form = h("form", { novalidate: true },
        h("fieldset", {}, h("legend", {}, `What happens to its ${count(category.itemCount, "item")}`),
          choices.map(([value, label], index) => h("label", { class: "check" },
            h("input", { type: "radio", name: "items", value, checked: index === (category.itemCount ? 1 : 0) }), label))),
        field("Move the items to", moveTo),
        counts,
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("div", { class: "dialog-actions" }, h("button", { type: "button", onclick: () => close(false) }, "Cancel"), confirm));
      const request = () => {
        const items = new FormData(form).get("items");
        const body = { id: category.id, items, expectedRevision: category.revision };
        if (items === "move") body.moveTo = Number(moveTo.value);
        return body;
      };
      const dryRun = checkedWrite({ form, counts, confirm, close, method: "Delete", request, describe: countsLine });
      const check = () => {
        moveTo.disabled = new FormData(form).get("items") !== "move";
        dryRun();
      };
      form.addEventListener("change", check);
      check();
      return form;
    });
    if (deleted) {
      announce(`Deleted ${category.name}`);
      await load("#main h2");
    }
  }

  async function merge(sources) {
    const merged = await openDialog(`Merge ${count(sources.length, "category", "categories")}`, (close) => {
      const targets = otherCategories(sources.map((s) => s.id));
      const target = h("select", { name: "targetId" }, targets.map((c) => h("option", { value: c.id }, c.name)));
      const counts = h("p", { class: "counts", role: "status", dataset: { counts: "pending" } }, "Checking…");
      const confirm = h("button", { type: "submit", class: "danger", disabled: true }, "Merge");
      const form = h("form", { novalidate: true },
        h("p", {}, `Merging ${sources.map((s) => s.name).join(", ")}: their items move to the target and they are deleted.`),
        field("Into", target), counts,
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("div", { class: "dialog-actions" }, h("button", { type: "button", onclick: () => close(false) }, "Cancel"), confirm));
      const request = () => ({ sourceIds: sources.map((s) => s.id), targetId: Number(target.value) });
      const describe = (answer) => `This moves ${count(answer.movedItems, "item")} and deletes ${count(answer.deletedIds.length, "category", "categories")}.`;
      const dryRun = checkedWrite({ form, counts, confirm, close, method: "Merge", request, describe });
      target.addEventListener("change", dryRun);
      if (targets.length) dryRun();
      else { confirm.disabled = true; counts.textContent = "There is no other category to merge into."; }
      return form;
    });
    if (merged) {
      selected.clear();
      announce("Merged");
      await load();
    }
  }

  async function assignItems() {
    const assigned = await openDialog("Assign items to a category", (close) => {
      const query = h("input", { type: "search", name: "itemQuery", "aria-label": "Search items", placeholder: "Search items" });
      const items = h("fieldset", { class: "item-picks" }, h("legend", {}, "Items"));
      const target = h("select", { name: "categoryId" }, h("option", { value: "" }, "No category"),
        categories.map((c) => h("option", { value: c.id }, c.name)));
      const counts = h("p", { class: "counts", role: "status" });
      const chosen = new Set();
      const form = h("form", { novalidate: true }, query, items, field("Category", target), counts,
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("div", { class: "dialog-actions" }, h("button", { type: "button", onclick: () => close(false) }, "Cancel"),
          h("button", { type: "submit", class: "primary" }, "Assign")));
      const request = () => {
        const body = { itemIds: [...chosen] };
        if (target.value) body.categoryId = Number(target.value);
        return body;
      };
      const dryRun = async () => {
        clearFieldErrors(form);
        if (chosen.size === 0) { counts.textContent = "Choose the items to assign."; return; }
        try {
          const answer = await call("catalog.v1.Categories", "AssignItems", { ...request(), dryRun: true });
          counts.textContent = `This changes ${count(answer.updated, "item")}.`;
        } catch (error) {
          showFieldError(form, error);
        }
      };
      const listItems = async () => {
        const request = { pageSize: 50, sort: "title" };
        if (query.value.trim()) request.query = query.value.trim();
        try {
          const page = await call("catalog.v1.Catalog", "ListItems", request);
          items.replaceChildren(h("legend", {}, `Items (${page.totalCount})`), ...page.items.map((item) => {
            const box = h("input", { type: "checkbox", value: item.id, checked: chosen.has(item.id) });
            box.addEventListener("change", () => { box.checked ? chosen.add(item.id) : chosen.delete(item.id); dryRun(); });
            return h("label", { class: "check" }, box, item.title);
          }));
        } catch (error) {
          showFieldError(form, error);
        }
      };
      let timer = null;
      query.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(listItems, 200); });
      target.addEventListener("change", dryRun);
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        if (chosen.size === 0) return dryRun();
        try {
          await call("catalog.v1.Categories", "AssignItems", request());
          close(true);
        } catch (error) {
          showFieldError(form, error);
        }
      });
      listItems();
      dryRun();
      return form;
    });
    if (assigned) {
      announce("Items assigned");
      await load();
    }
  }

  // MARK: The toolbar

  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { view.query = search.value.trim(); load(); }, 200);
  });
  sort.addEventListener("change", () => { view.sort = sort.value; load(); });
  descending.addEventListener("change", () => { view.descending = descending.checked; load(); });
  hideEmpty.addEventListener("change", () => { view.hideEmpty = hideEmpty.checked; load(); });

  load();
  return () => {
    clearTimeout(searchTimer);
    loadCount++;
  };
}
