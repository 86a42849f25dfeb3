// Copy buttons: shown only when this script runs, so that no dead button appears without it.
document.addEventListener("DOMContentLoaded", showCopyButtons);
document.addEventListener("htmx:afterSettle", showCopyButtons);

function showCopyButtons() {
  for (const button of document.querySelectorAll("button.copy[hidden]")) {
    if (navigator.clipboard) button.hidden = false;
  }
}

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy");
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  await navigator.clipboard.writeText(source.innerText.replace(/\n$/, ""));
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 2000);
});

// htmx requests that change something carry the CSRF token from its cookie, so that pages
// themselves hold no token and can be cached for every visitor.
document.addEventListener("htmx:configRequest", (event) => {
  if (event.detail.verb === "get") return;
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/);
  if (match) event.detail.headers["X-CSRFToken"] = decodeURIComponent(match[1]);
});
