// The theme before the first paint, so a dark page never flashes light (a classic script
// in the head of every page, run before anything is drawn).
try {
  const theme = JSON.parse(localStorage.getItem("numberplace-settings") || "{}").theme || "system";
  const dark = theme === "dark" || (theme === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
} catch { /* storage blocked: the light theme */ }
