// Small helpers the screens share: making elements, announcing to screen readers, dialogs,
// formats, and the forms' server errors.

/** Makes an element: `h("button", {class: "chip", onclick}, "All")`. Attributes whose value
 *  is `false`, `null` or `undefined` are left out; `on…` attributes become listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Says `message` to screen readers through the page's polite live region. */
export function announce(message) {
  const region = document.getElementById("announcer");
  region.textContent = "";
  // A new text node in a later task, so that the same message twice is said twice.
  setTimeout(() => { region.textContent = message; }, 30);
}

const money = new Map();

/** `{amount: "490.00", currency: "EUR"}` in French formatting: "490,00 €". */
export function formatPrice(price) {
  if (!price) return "";
  let format = money.get(price.currency);
  if (!format) {
    format = new Intl.NumberFormat("fr-FR", { style: "currency", currency: price.currency });
    money.set(price.currency, format);
  }
  return format.format(Number(price.amount));
}

const dates = new Intl.DateTimeFormat("fr-FR", { dateStyle: "medium" });

export function formatDate(text) {
  return text ? dates.format(new Date(text)) : "";
}

/** Opens a modal dialog whose content `build(close)` makes; resolves with what `close` is
 *  given (undefined on Escape). Focus moves into it and back where it was. */
export function openDialog(title, build) {
  return new Promise((resolve) => {
    const titleId = `dialog-title-${Math.random().toString(36).slice(2)}`;
    const dialog = h("dialog", { class: "dialog", "aria-labelledby": titleId });
    const returnFocus = document.activeElement;
    const close = (value) => {
      dialog.close();
      dialog.remove();
      returnFocus?.focus?.();
      resolve(value);
    };
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); close(undefined); });
    dialog.append(h("h2", { id: titleId }, title), build(close));
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** A labelled form field; its error line is filled by `showFieldError`. */
export function field(label, input, hint) {
  const id = input.id || (input.id = `field-${Math.random().toString(36).slice(2)}`);
  const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
  input.setAttribute("aria-describedby", `${id}-error`);
  return h("div", { class: "field", dataset: { field: input.name } },
    h("label", { for: id }, label), input, hint ? h("p", { class: "hint" }, hint) : null, error);
}

/** Shows `error` (an RpcError) on the form's field it names, or on the form's own error line. */
export function showFieldError(form, error) {
  clearFieldErrors(form);
  const input = error.field ? form.querySelector(`[name="${CSS.escape(error.field)}"]`) : null;
  if (input) {
    input.setAttribute("aria-invalid", "true");
    const line = document.getElementById(`${input.id}-error`);
    line.textContent = error.message;
    line.hidden = false;
    input.focus();
  } else {
    const line = form.querySelector(".form-error");
    line.textContent = error.message;
    line.hidden = false;
  }
  announce(error.message);
}

export function clearFieldErrors(form) {
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  for (const line of form.querySelectorAll(".field-error, .form-error")) {
    line.textContent = "";
    line.hidden = true;
  }
}

/** The line that says why a control is disabled for this user, or null when it is not. */
export function roleNote(session, needed) {
  if (session.can(needed)) return null;
  return `Needs the ${needed} role: you are signed in as ${session.role}.`;
}

/** Disables `control` with the reason `note`, shown as its tooltip and read with it. It stays
 *  focusable (aria-disabled), so that a keyboard or screen-reader user finds out why. */
export function disableFor(control, note) {
  if (!note) return control;
  control.setAttribute("aria-disabled", "true");
  control.title = note;
  control.dataset.disabledReason = note;
  control.setAttribute("aria-description", note);
  control.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    announce(note);
  }, { capture: true });
  return control;
}
