// Entry pages collapse their long parts in <details>. A link into one (#fix-<key> from the
// wizard, #base-loop) must show what it points at: open every <details> around the target,
// and the target itself when it is one. Without this script the id sits on the <details>, so
// the link still lands on its visible summary.
function openTarget() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) return;
  for (let node = target; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;
  }
  target.scrollIntoView();
}

document.addEventListener("DOMContentLoaded", openTarget);
window.addEventListener("hashchange", openTarget);
