fetch("link.txt").then((r) => r.text()).then((link) => location.replace(link));
