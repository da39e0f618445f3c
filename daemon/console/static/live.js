// Refreshes <main data-live="ms"> from the same URL until the fresh page
// no longer asks for it (its run settled). The page reads without it.
(function () {
  "use strict";
  function tick() {
    var main = document.getElementById("main");
    if (!main || !main.hasAttribute("data-live")) { return; }
    var ms = parseInt(main.getAttribute("data-live"), 10) || 2000;
    setTimeout(function () {
      fetch(location.href, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
          if (!fresh) { return; }
          main.innerHTML = fresh.innerHTML;
          if (!fresh.hasAttribute("data-live")) { main.removeAttribute("data-live"); }
          tick();
        })
        .catch(function () { tick(); });
    }, ms);
  }
  document.addEventListener("DOMContentLoaded", tick);
})();
