// The console's shell: who is signed in (and with which role), the screens by URL, and the
// page's live region.
import { call, currentToken, setToken, RpcError } from "./rpc.js";
import { h, announce, field, showFieldError } from "./ui.js";
import { itemsScreen } from "./items.js";

const ranks = { reader: 1, writer: 2, admin: 3 };

/** Who uses the console: `role` is "reader", "writer" or "admin"; `open` when the server has
 *  no tokens (everyone may do everything). */
export class Session {
  constructor(role, open) {
    this.role = role;
    this.open = open;
  }

  can(role) {
    return ranks[this.role] >= ranks[role];
  }
}

/** The role of the current token, found with calls that change nothing: a read, then a
 *  Select of an invalid filter id (refused for a reader before it is looked at) and a dry-run
 *  Delete of category 0 (refused for a writer). `null` when the server wants a token. */
async function findSession() {
  try {
    await call("catalog.v1.Categories", "Palette");
  } catch (error) {
    if (error.code === "unauthenticated") return null;
    throw error;
  }
  if (!currentToken()) return new Session("admin", true);
  const allowed = async (service, method, request) => {
    try {
      await call(service, method, request);
      return true;
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      if (error.code === "unavailable") throw error;
      return error.code !== "permission_denied";
    }
  };
  if (await allowed("catalog.v1.Categories", "Delete", { id: 0, dryRun: true })) return new Session("admin", false);
  if (await allowed("catalog.v1.Filters", "Select", { filterId: "-" })) return new Session("writer", false);
  return new Session("reader", false);
}

const screens = {
  items: async () => itemsScreen,
  filters: async () => (await import("./filters.js")).filtersScreen,
  categories: async () => (await import("./categories.js")).categoriesScreen,
};

const main = document.getElementById("main");
let session = null;
let disposeScreen = null;
let shown = 0;

function screenName() {
  const name = location.hash.replace(/^#\/?/, "").split("?")[0];
  return name in screens ? name : "items";
}

async function show() {
  const name = screenName();
  const showing = ++shown;
  disposeScreen?.();
  disposeScreen = null;
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.screen === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const screen = await screens[name]();
  if (showing !== shown) return;
  main.replaceChildren();
  disposeScreen = screen(main, session);
  document.title = `${name[0].toUpperCase()}${name.slice(1)} · Catalog console`;
}

function renderSessionBar() {
  const bar = document.getElementById("session");
  if (!session) {
    bar.replaceChildren();
    return;
  }
  const text = session.open ? "Open server: no token needed" : `Signed in as ${session.role}`;
  bar.replaceChildren(h("span", { class: "role", dataset: { role: session.role } }, text),
    session.open ? "" : h("button", { type: "button", class: "link", onclick: signOut }, "Sign out"));
}

function signOut() {
  setToken("");
  start();
}

function signInForm(reason) {
  disposeScreen?.();
  disposeScreen = null;
  const input = h("input", { name: "token", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "sign-in", "aria-labelledby": "sign-in-title", novalidate: true },
    h("h2", { id: "sign-in-title" }, "Sign in"),
    h("p", {}, "This server asks for a bearer token. The console keeps it for this tab only."),
    field("Token", input),
    h("p", { class: "form-error", role: "alert", hidden: true }),
    h("button", { type: "submit", class: "primary" }, "Sign in"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    setToken(input.value.trim());
    try {
      const found = await findSession();
      if (!found) throw new RpcError("unauthenticated", "The server does not know this token.", { field: "token" });
      session = found;
      announce(`Signed in as ${session.role}`);
      renderSessionBar();
      await show();
    } catch (error) {
      setToken("");
      showFieldError(form, error.field ? error : Object.assign(error, { field: "token" }));
    }
  });
  main.replaceChildren(form);
  renderSessionBar();
  if (reason) announce(reason);
  input.focus();
}

function unreachable(error) {
  const retry = h("button", { type: "button", class: "primary", onclick: start }, "Retry");
  main.replaceChildren(h("section", { class: "state error", role: "alert" },
    h("h2", {}, "The server cannot be reached"), h("p", { class: "message" }, error.message), retry));
}

async function start() {
  session = null;
  try {
    session = await findSession();
  } catch (error) {
    unreachable(error);
    return;
  }
  if (!session) {
    signInForm(currentToken() ? "Your token is no longer accepted." : "");
    return;
  }
  renderSessionBar();
  await show();
}

window.addEventListener("hashchange", () => { if (session) show(); });
start();
