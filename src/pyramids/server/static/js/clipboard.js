// Copy a text with one click (part D: the lobby's invite links, the replay's step links).
// navigator.clipboard needs a secure context (HTTPS or localhost); elsewhere a hidden
// textarea and document.execCommand("copy") stand in, and when both fail the caller is told.

/** Copy `text` to the clipboard; true when it was copied. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // permission refused or no focus: try the old way below
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.top = "0";
  area.style.left = "0";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  area.remove();
  return done;
}

/** Show `label` on `button` for a moment (a "Copied" confirmation), then its own text again. */
export function confirmOn(button, label, restore, ms = 1500) {
  button.textContent = label;
  button.classList.add("copied");
  clearTimeout(button._copiedTimer);
  button._copiedTimer = setTimeout(() => {
    button.textContent = restore();
    button.classList.remove("copied");
  }, ms);
}
