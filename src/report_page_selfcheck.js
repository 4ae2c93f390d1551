<script>
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message || e)); });
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  });
  window.addEventListener('load', function () {
    var figs = document.querySelectorAll('figure'), drawn = 0, unlabelled = [];
    figs.forEach(function (f, i) {
      var g = f.querySelector('svg, img');
      if (!g) return;
      var b = g.getBoundingClientRect();
      if ((g.tagName === 'IMG' ? g.complete && g.naturalWidth > 0 : true) && b.width > 0 && b.height > 0) drawn++;
      var want = JSON.parse(f.dataset.labels || '[]'), text = g.tagName === 'IMG' ? '' : g.textContent;
      if (want.length === 0) unlabelled.push(i + ': no labels');
      want.forEach(function (w) {
        if (!w || text.indexOf(w) < 0) unlabelled.push(i + ': ' + JSON.stringify(w));
      });
    });
    var first = document.querySelector('table');
    var sec = first ? first.closest('section') : null;
    var out = document.getElementById('schedlab-selfcheck');
    out.textContent = JSON.stringify({
      tables: document.querySelectorAll('table').length,
      figures: figs.length, drawn: drawn, unlabelled: unlabelled,
      first_section: (document.querySelector('section') || {}).id || null,
      first_table_section: sec ? sec.id : null, errors: errors });
  });
})();
</script>