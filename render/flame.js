// vmprof's flame graph script, written for vmprof (no framework, no
// network): click a frame to zoom into it, reset, search with the matched
// total, labels refitted to the width. It reads only what flamesvg.c wrote
// as attributes and writes text with textContent: names from guest files are
// never parsed as markup. Every graph in the document (g.vp-flame) works on
// its own, finding its controls by class inside its own <svg>, so the HTML
// report can hold several (their ids are prefixed there). Kept free of the
// CDATA end and of end tags: embed-assets.sh checks.
(function () {
	"use strict";
	function num(el, name) {
		var s = el.getAttribute(name);
		return s === null ? 0 : parseFloat(s);
	}
	var graphs = [], current = null;

	function graph(root) {
		var svg = root.ownerSVGElement || document;
		var X0 = num(root, "data-plot-x"), W = num(root, "data-plot-w");
		var FONT = num(root, "data-font");
		var nsides = num(root, "data-sides"), wside = num(root, "data-wside");
		var labels = [root.getAttribute("data-label0"), root.getAttribute("data-label1")];
		var totals = [num(root, "data-total0"), num(root, "data-total1")];
		var unit = root.getAttribute("data-value");
		var status = svg.querySelector(".vp-status");
		var reset = svg.querySelector(".vp-reset");
		var input = svg.querySelector(".vp-search");
		var hint = status ? status.textContent : "";
		var eps = 1e-6 * W;
		var frames = [], byNode = new Map();
		var gs = root.querySelectorAll("g.vp-frame");
		for (var i = 0; i < gs.length; i++) {
			var g = gs[i], box = g.querySelector("rect.vp-box");
			var f = {
				g: g, rects: g.querySelectorAll("rect"), text: g.querySelector("text"),
				x: num(box, "x"), w: num(box, "width"), depth: num(g, "data-depth"),
				name: g.getAttribute("data-name") || "", v: [num(g, "data-v0"), num(g, "data-v1")]
			};
			frames.push(f);
			byNode.set(g, f);
		}
		if (!frames.length)
			return null;

		/* The name kept to k characters: its start and end around an ellipsis
		 * (a C++ name ends in its function), or for a few, the start. */
		function cut(s, k) {
			var head = k < 12 ? k : Math.floor(k / 3);
			return s.slice(0, head) + "\u2026" + (k < 12 ? "" : s.slice(s.length - (k - head)));
		}

		/* The label that fits w: the name, cut, or nothing. */
		function fit(f, w) {
			var t = f.text, s = f.name, avail = w - 6, lo = 1, hi = s.length, best = "";
			if (!t)
				return;
			if (w < FONT * 2.2) {
				t.textContent = "";
				return;
			}
			t.textContent = s;
			if (t.getComputedTextLength() <= avail)
				return;
			while (lo <= hi) {
				var k = (lo + hi) >> 1, c = cut(s, k);
				t.textContent = c;
				if (t.getComputedTextLength() <= avail) {
					best = c;
					lo = k + 1;
				} else {
					hi = k - 1;
				}
			}
			t.textContent = best.length > 2 ? best : "";
		}

		function place(f, x, w) {
			for (var j = 0; j < f.rects.length; j++) {
				f.rects[j].setAttribute("x", x.toFixed(3));
				f.rects[j].setAttribute("width", w.toFixed(3));
			}
			if (f.text)
				f.text.setAttribute("x", (x + 3).toFixed(3));
			f.g.style.display = "";
			fit(f, w);
		}

		function inside(f, t) {
			return f.x >= t.x - eps && f.x + f.w <= t.x + t.w + eps;
		}

		/* Zoom: t takes the full width, what it called scales with it, what
		 * called it stays as a full-width (faded) path below, the rest hides. */
		function zoom(t) {
			var scale = W / t.w;
			for (var i = 0; i < frames.length; i++) {
				var f = frames[i];
				if (f.depth >= t.depth && inside(f, t)) {
					place(f, X0 + (f.x - t.x) * scale, f.w * scale);
					f.g.classList.remove("vp-parent");
				} else if (f.depth < t.depth && inside(t, f)) {
					place(f, X0, W);
					f.g.classList.add("vp-parent");
				} else {
					f.g.style.display = "none";
				}
			}
			if (reset)
				reset.setAttribute("visibility", t === frames[0] ? "hidden" : "visible");
		}

		function pct(v, total) {
			return total > 0 ? (100 * v / total).toFixed(2) + "%" : "-";
		}

		function part(sum, side) {
			return pct(sum[side], totals[side]) + " of " + labels[side] + " (" + sum[side] + " " +
				unit + ")";
		}

		/* Search: frames whose name matches (a regular expression, else the
		 * literal text) are highlighted; their total counts each stack once,
		 * a match above another match being part of it. */
		function search(term) {
			var re = null, n = 0, sum = [0, 0], counted = [];
			if (term) {
				try {
					re = new RegExp(term);
				} catch (e) {
					re = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
				}
			}
			for (var i = 0; i < frames.length; i++) {
				var f = frames[i], hit = re !== null && re.test(f.name), nested = false;
				f.g.classList.toggle("vp-match", hit);
				if (!hit)
					continue;
				n++;
				for (var k = 0; k < counted.length && !nested; k++)
					nested = f.depth > counted[k].depth && inside(f, counted[k]);
				if (!nested) {
					counted.push(f);
					sum[0] += f.v[0];
					sum[1] += f.v[1];
				}
			}
			if (!status)
				return;
			if (!term) {
				status.textContent = hint;
				return;
			}
			var text = n + (n === 1 ? " frame matches" : " frames match") + ": " + part(sum, wside);
			if (nsides > 1)
				text += "; " + part(sum, 1 - wside);
			status.textContent = text;
			status.setAttribute("data-matches", String(n));
			status.setAttribute("data-total", String(sum[wside]));
		}

		var self = { zoom: zoom, search: search, input: input, top: frames[0] };
		root.addEventListener("click", function (e) {
			var g = e.target.closest ? e.target.closest("g.vp-frame") : null;
			current = self;
			if (g && byNode.has(g))
				zoom(byNode.get(g));
		});
		if (reset)
			reset.addEventListener("click", function () {
				current = self;
				zoom(frames[0]);
			});
		if (input)
			input.addEventListener("input", function () {
				current = self;
				search(input.value);
			});
		zoom(frames[0]);
		return self;
	}

	var roots = document.querySelectorAll("g.vp-flame");
	for (var i = 0; i < roots.length; i++) {
		var g = graph(roots[i]);
		if (g)
			graphs.push(g);
	}
	if (!graphs.length)
		return;
	current = graphs[0];
	// Escape resets every graph; "/" (and Ctrl+F in the SVG file alone)
	// searches the graph last used, unless a text field has the keys
	var alone = document.documentElement.localName === "svg";
	document.addEventListener("keydown", function (e) {
		var a = document.activeElement;
		var typing = a && (a.localName === "input" || a.localName === "textarea" || a.isContentEditable);
		if (e.key === "Escape") {
			for (var i = 0; i < graphs.length; i++) {
				if (graphs[i].input)
					graphs[i].input.value = "";
				graphs[i].search("");
				graphs[i].zoom(graphs[i].top);
			}
		} else if (current.input && !typing &&
			   (e.key === "/" || (alone && e.key === "f" && (e.ctrlKey || e.metaKey)))) {
			e.preventDefault();
			current.input.focus();
		}
	});
})();
