// Chart text and grid lines follow the page's colour scheme (www/style.css). A file of its own, not inline:
// the page's Content-Security-Policy runs no inline script.
if (matchMedia("(prefers-color-scheme: dark)").matches) {
  Chart.defaults.color = "#c9d1dc";
  Chart.defaults.borderColor = "#3a4252";
}
