/* global MiniSearch */
// The exported bundle's offline search: MiniSearch's browser build and the prebuilt index
// (search-index.js) come before it as classic scripts, so it works from file:// too.
(function () {
  var script = document.currentScript;
  var root = script.getAttribute('data-root') || '';
  var index = MiniSearch.loadJS(window.DOCS_SEARCH_INDEX, window.DOCS_SEARCH_OPTIONS);
  var input = document.getElementById('search');
  var list = document.getElementById('search-results');
  if (!input || !list) return;
  input.addEventListener('input', function () {
    var query = input.value.trim();
    list.textContent = '';
    if (!query) {
      list.hidden = true;
      return;
    }
    var hits = index
      .search(query, { prefix: true, fuzzy: 0.2, boost: { title: 2, heading: 1.5 } })
      .slice(0, 8);
    if (!hits.length) {
      var none = document.createElement('li');
      none.textContent = 'No results';
      list.appendChild(none);
    }
    hits.forEach(function (hit) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = root + hit.url;
      a.textContent = hit.title;
      if (hit.heading && hit.heading !== hit.title) {
        var small = document.createElement('small');
        small.textContent = hit.heading;
        a.appendChild(small);
      }
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  });
  input.form.addEventListener('submit', function (event) {
    event.preventDefault();
    var first = list.querySelector('a');
    if (first) location.href = first.href;
  });
})();
