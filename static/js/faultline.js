// Copy buttons: added by this script, so that no dead button appears without it. Every code
// block gets one: the highlighted ones (snippets, the base loop, code in Markdown) and sample
// output; a paste shown back with its line numbers is the reader's own text and gets none.
const CODE_BLOCKS = ".highlight > pre, pre.sample";
const COPY_LABEL = "Copy code";

document.addEventListener("DOMContentLoaded", addCopyButtons);
document.addEventListener("htmx:afterSettle", addCopyButtons);

function addCopyButtons() {
  // The mark travels with htmx's history snapshots, so a restored page gets no second button.
  for (const code of document.querySelectorAll(CODE_BLOCKS)) {
    if (code.dataset.copyable) continue;
    code.dataset.copyable = "1";
    const bar = document.createElement("div");
    bar.className = "copy-bar";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = COPY_LABEL;
    const status = document.createElement("span");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    bar.append(button, status);
    outermostWrapper(code).before(bar);
  }
}

// The bar goes outside every element that holds nothing but the code (the wizard's
// #snippet-code), so that the text of such an element is the code alone.
function outermostWrapper(code) {
  let wrapper = code;
  while (wrapper.parentElement.childElementCount === 1 && wrapper.parentElement !== document.body) {
    wrapper = wrapper.parentElement;
  }
  return wrapper;
}

function codeOf(button) {
  const wrapper = button.closest(".copy-bar").nextElementSibling;
  return wrapper.matches("pre") ? wrapper : wrapper.querySelector("pre");
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy");
  if (!button) return;
  const code = codeOf(button);
  const copied = (await copyToClipboard(code.innerText.replace(/\n$/, ""))) || copySelection(code);
  tell(button, copied ? "Copied" : "Press Ctrl+C to copy");
});

// The Clipboard API exists only in secure contexts (HTTPS, localhost); a portal on a closed
// network is often plain HTTP, where copying the selection still works.
async function copyToClipboard(text) {
  if (!window.isSecureContext || !navigator.clipboard) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;  // refused (no permission, page not focused): the selection may still work
  }
}

// Selects the code and copies the selection; when even that is refused, the code stays
// selected for the reader's own Ctrl+C.
function copySelection(code) {
  const range = document.createRange();
  range.selectNodeContents(code);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  try {
    if (!document.execCommand("copy")) return false;
  } catch {
    return false;
  }
  selection.removeAllRanges();
  return true;
}

function tell(button, message) {
  button.textContent = message;
  button.nextElementSibling.textContent = message;
  clearTimeout(button.resetTimer);
  button.resetTimer = setTimeout(() => {
    button.textContent = COPY_LABEL;
    button.nextElementSibling.textContent = "";
  }, 3000);
}

// htmx requests that change something carry the CSRF token from its cookie, so that pages
// themselves hold no token and can be cached for every visitor.
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.verb === "get") return;
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
  if (match) event.detail.headers["X-CSRFToken"] = decodeURIComponent(match[1]);
});

// Ctrl+Enter (Cmd+Enter on a Mac) in the paste box sends it, as in the chat and review tools
// the text comes from; Enter alone stays a new line.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
  const box = event.target.closest("textarea");
  if (!box || !box.form) return;
  event.preventDefault();
  box.form.requestSubmit();
});

// A link marked data-fills="<textarea id>" points at a text file of this site (an example
// paste): a click puts the text in the box instead of opening it.
document.addEventListener("click", async (event) => {
  const link = event.target.closest("a[data-fills]");
  const box = link && document.getElementById(link.dataset.fills);
  if (!box) return;
  event.preventDefault();
  try {
    const response = await fetch(link.href);
    if (!response.ok) throw new Error(response.statusText);
    box.value = await response.text();
  } catch {
    window.location.href = link.href;  // the file itself, to copy from
    return;
  }
  box.focus();
  box.setSelectionRange(0, 0);
  box.scrollTop = 0;
});
