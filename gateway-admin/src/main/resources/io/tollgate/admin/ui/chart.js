// Draws small time-series line charts as SVG, with no library: the console must work offline
// and under a Content-Security-Policy that allows only its own origin.
"use strict";
window.TollgateChart = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const PAD = { left: 44, right: 8, top: 8, bottom: 18 };

  function el(name, attrs, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function niceMax(max) {
    if (!(max > 0)) return 1;
    const step = Math.pow(10, Math.floor(Math.log10(max)));
    for (const m of [1, 2, 5, 10]) if (max <= m * step) return m * step;
    return 10 * step;
  }

  function format(v) {
    return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  }

  // times: epoch ms; series: [{ values: [number|null], label }]. The first series' last value,
  // the sum of its values and the number of points are written on the svg as data- attributes.
  function draw(svg, times, series) {
    const width = svg.clientWidth || 420;
    const height = svg.clientHeight || 160;
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    let max = 0;
    for (const s of series) for (const v of s.values) if (v !== null && v > max) max = v;
    max = niceMax(max);
    const t0 = times.length ? times[0] : 0;
    const t1 = times.length ? times[times.length - 1] : 1;
    const span = Math.max(t1 - t0, 1000);
    const x = (t) => PAD.left + (width - PAD.left - PAD.right) * (t - t0) / span;
    const y = (v) => height - PAD.bottom - (height - PAD.top - PAD.bottom) * v / max;
    svg.appendChild(el("line", { class: "axis", x1: PAD.left, y1: y(0), x2: width - PAD.right, y2: y(0) }));
    svg.appendChild(el("line", { class: "axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: y(0) }));
    svg.appendChild(el("text", { class: "label", x: 2, y: PAD.top + 8 }, format(max)));
    svg.appendChild(el("text", { class: "label", x: 2, y: y(0) }, "0"));
    if (times.length) {
      const minutes = Math.round(span / 60000);
      svg.appendChild(el("text", { class: "label", x: PAD.left, y: height - 4 },
        minutes >= 1 ? "-" + minutes + " min" : "-" + Math.round(span / 1000) + " s"));
      svg.appendChild(el("text", { class: "label", x: width - PAD.right - 24, y: height - 4 }, "now"));
    }
    series.forEach((s, i) => {
      let points = "";
      s.values.forEach((v, j) => {
        if (v !== null) points += x(times[j]).toFixed(1) + "," + y(v).toFixed(1) + " ";
      });
      svg.appendChild(el("polyline", { class: "s" + i, points: points.trim() }));
      if (s.label) {
        svg.appendChild(el("text", { class: "label s" + i, x: width - PAD.right - 120 + 40 * i, y: PAD.top + 8 }, s.label));
      }
    });
    const first = series.length ? series[0].values : [];
    let last = 0, sum = 0;
    for (const v of first) if (v !== null) { last = v; sum += v; }
    svg.dataset.points = String(first.length);
    svg.dataset.last = String(last);
    svg.dataset.sum = String(sum);
  }

  return { draw };
})();
