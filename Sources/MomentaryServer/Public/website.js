// The researcher website's one script: it only adds conveniences, and every page works without
// it. A button with data-copy copies its text (a join link) and says so in the page's status.
for (const button of document.querySelectorAll("button[data-copy]")) {
  if (!navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const status = document.getElementById("copy-status");
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      button.textContent = "Copied";
      if (status) status.textContent = "Copied " + button.dataset.copy;
    } catch {
      if (status) status.textContent = "The browser did not allow copying; select the link and copy it.";
    }
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  });
}
