// vmprof's HTML report: sort a comparison table by any column (the heading's
// button: click, Enter or Space; aria-sort says how it is sorted) and filter
// its rows by function name. Data is read from the page (data-v, data-s,
// text) and written with textContent and attributes only: names from files
// never pass through an HTML parser here.
'use strict';
(function () {
	function key(cell, numeric) {
		if (!numeric) {
			var v = cell.getAttribute('data-v');
			return v === null ? cell.textContent : v;
		}
		var s = cell.getAttribute('data-s');
		var x = Number(s === null ? cell.getAttribute('data-v') : s);
		return isNaN(x) ? null : x;
	}

	function compare(a, b, dir) {
		// rows without a value (no ratio) go last either way
		if (a.k === null || b.k === null) {
			if (a.k === b.k) return a.rank - b.rank;
			return a.k === null ? 1 : -1;
		}
		if (a.k < b.k) return -dir;
		if (a.k > b.k) return dir;
		return a.rank - b.rank;
	}

	function sortTable(table, th, col, status) {
		var numeric = th.getAttribute('data-type') === 'num';
		var now = th.getAttribute('aria-sort');
		var desc = now === 'descending' ? false : now === 'ascending' ? true : numeric;
		var body = table.tBodies[0];
		var rows = [];
		var i;
		for (i = 0; i < body.rows.length; i++) {
			var tr = body.rows[i];
			rows.push({ tr: tr, k: key(tr.cells[col], numeric), rank: Number(tr.getAttribute('data-rank')) });
		}
		// the rank column sorts by rank: its first click gives the ranked order
		if (col === 0 && now === null) desc = false;
		rows.sort(function (a, b) { return compare(a, b, desc ? -1 : 1); });
		var frag = document.createDocumentFragment();
		for (i = 0; i < rows.length; i++) frag.appendChild(rows[i].tr);
		body.appendChild(frag);
		var heads = table.tHead.rows[0].cells;
		for (i = 0; i < heads.length; i++) heads[i].removeAttribute('aria-sort');
		th.setAttribute('aria-sort', desc ? 'descending' : 'ascending');
		if (status) status.textContent = 'sorted by ' + th.textContent + ', ' +
			(desc ? 'largest first' : 'smallest first');
	}

	function filterTable(table, input, count) {
		var q = input.value.trim().toLowerCase();
		var body = table.tBodies[0];
		var shown = 0;
		for (var i = 0; i < body.rows.length; i++) {
			var tr = body.rows[i];
			var name = tr.cells[1].textContent.toLowerCase();
			var hide = q !== '' && name.indexOf(q) < 0;
			tr.hidden = hide;
			if (!hide) shown++;
		}
		if (count) count.textContent = shown + ' of ' + body.rows.length + ' functions shown';
	}

	var tables = document.querySelectorAll('table.cmp');
	Array.prototype.forEach.call(tables, function (table) {
		var status = document.getElementById(table.getAttribute('data-status'));
		var heads = table.tHead.rows[0].cells;
		Array.prototype.forEach.call(heads, function (th, col) {
			var b = th.querySelector('button');
			if (b) b.addEventListener('click', function () { sortTable(table, th, col, status); });
		});
	});
	var inputs = document.querySelectorAll('input.filter');
	Array.prototype.forEach.call(inputs, function (input) {
		var table = document.getElementById(input.getAttribute('data-table'));
		var count = document.getElementById(table.getAttribute('data-count'));
		input.addEventListener('input', function () { filterTable(table, input, count); });
		if (input.value) filterTable(table, input, count);
	});
}());
