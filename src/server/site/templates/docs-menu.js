// The docs pages' sidebar, which scrolls on its own, opens on the current page's link; below
// 720 px, where the sidebar hides, the menu button opens it over the page and says so
// (aria-expanded); Escape, a link followed or a tap outside closes it. Inline in every page, so
// it works served, exported and from file://.
(function () {
  var button = document.querySelector('header.site .menu-button');
  var nav = document.getElementById(button && button.getAttribute('aria-controls'));
  if (!button || !nav) return;
  // The list alone scrolls, never the page: a reader on the 40th page of a long list saw its first
  // links and had to look for where they were.
  var current = nav.querySelector('a[aria-current="page"]');
  function showCurrent() {
    if (!current) return;
    var box = current.getBoundingClientRect();
    var list = nav.getBoundingClientRect();
    if (box.top < list.top || box.bottom > list.bottom)
      nav.scrollTop += box.top - list.top - list.height / 3;
  }
  showCurrent();
  function set(open, focus) {
    button.setAttribute('aria-expanded', String(open));
    nav.setAttribute('data-state', open ? 'open' : 'closed');
    // Below the header, however tall it wrapped (the export's search box takes a second line).
    if (open) nav.style.top = button.parentElement.getBoundingClientRect().bottom + 'px';
    if (open) showCurrent();
    if (open && focus) {
      var link = current || nav.querySelector('a');
      if (link) link.focus();
    }
  }
  var isOpen = function () {
    return button.getAttribute('aria-expanded') === 'true';
  };
  button.addEventListener('click', function (event) {
    // A keyboard press (detail 0) moves focus into the list; a tap leaves it on the button.
    set(!isOpen(), event.detail === 0);
  });
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape' || !isOpen()) return;
    set(false);
    button.focus();
  });
  document.addEventListener('click', function (event) {
    if (!isOpen()) return;
    var target = event.target;
    if (button.contains(target)) return;
    if (!nav.contains(target) || target.closest('a')) set(false);
  });
  // Focus leaving for elsewhere (the assistant's dialog opened from its shortcut) closes it too.
  document.addEventListener('focusin', function (event) {
    if (isOpen() && !button.contains(event.target) && !nav.contains(event.target)) set(false);
  });
  // A page restored from the back-forward cache comes back as it was left: with the menu shut.
  window.addEventListener('pageshow', function () {
    set(false);
  });
})();
