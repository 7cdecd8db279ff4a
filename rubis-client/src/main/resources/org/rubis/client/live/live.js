// The live page of a rubis-client run: reads live.json every second (only the intervals it has not seen) and draws
// them with uPlot; at the end, shows the run's summary.json. window.rubisLive holds its state (the tests read it).
(function () {
  "use strict";
  const MAX_POINTS = 7200;
  const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf"];
  const state = { next: 0, points: [], charts: {}, errorClasses: [], phases: null, done: false, summary: null,
                  capture: false, updates: 0 };
  window.rubisLive = state;

  const $ = (id) => document.getElementById(id);
  const text = (id, v) => { const e = $(id); if (e) { e.textContent = v; } };
  const fixed = (v, d) => (v === undefined || v === null || Number.isNaN(v)) ? "-" : Number(v).toFixed(d);

  // Dashed vertical lines at the phase boundaries (end of the up ramp, end of the run phase).
  function phaseLines() {
    return {
      hooks: {
        draw: [(u) => {
          if (!state.phases) { return; }
          const ctx = u.ctx;
          const marks = [[state.phases.up_end, "run"], [state.phases.run_end, "down"]];
          ctx.save();
          ctx.strokeStyle = "#888";
          ctx.fillStyle = "#666";
          ctx.setLineDash([5, 4]);
          ctx.lineWidth = 1;
          ctx.font = "11px sans-serif";
          for (const [x, label] of marks) {
            if (x === undefined || x < u.scales.x.min || x > u.scales.x.max) { continue; }
            const px = Math.round(u.valToPos(x, "x", true));
            ctx.beginPath();
            ctx.moveTo(px, u.bbox.top);
            ctx.lineTo(px, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.fillText(label, px + 3, u.bbox.top + 12);
          }
          ctx.restore();
        }],
      },
    };
  }

  // extra: { log: true } puts the y axis on a log scale (one warm-up spike does not flatten the rest); { right: [labels
  // on a second axis, its unit] } draws those series against their own scale on the right.
  function chart(id, title, unit, labels, extra) {
    const x = extra || {};
    const el = $(id);
    if (state.charts[id]) { state.charts[id].destroy(); }
    el.innerHTML = "";
    const right = x.right ? x.right[0] : [];
    const series = [{ label: "t (s)" }].concat(labels.map((l, i) => ({ label: l, stroke: COLORS[i % COLORS.length],
                                                                      width: 1.5, spanGaps: true,
                                                                      scale: right.includes(l) ? "r" : "y" })));
    // A log scale's range from the data, one decade when there is none yet (an interval with no reply).
    const logRange = (u, min, max) => (min === null || max === null || !(min > 0) || !(max > 0)
      ? [0.1, 10] : uPlot.rangeLog(min, max, 10, true));
    const scales = { x: { time: false }, y: x.log ? { distr: 3, log: 10, range: logRange } : {} };
    const axes = [{ label: "seconds since the start" }, { label: unit }];
    if (x.right) {
      scales.r = {};
      axes.push({ scale: "r", side: 1, label: x.right[1], grid: { show: false } });
    }
    const opts = { title: title, width: Math.max(320, Math.min(560, el.clientWidth || 560)), height: 220,
                   scales: scales, series: series, plugins: [phaseLines()], axes: axes };
    const data = [[]].concat(labels.map(() => []));
    state.charts[id] = new uPlot(opts, data, el);
    state.charts[id].rubisLabels = labels;
    return state.charts[id];
  }

  function makeCharts() {
    chart("chart-throughput", "Throughput", "requests/s", ["requests/s"]);
    chart("chart-response", "Response time (each interval, log scale)", "ms", ["p50", "p90", "p99"], { log: true });
    chart("chart-errors", "Errors by class", "errors/s", ["errors/s"]);
    chart("chart-sessions", "Active sessions", "sessions", ["active"]);
    chart("chart-lateness", "Send lateness", "ms", ["p99", "max"]);
    chart("chart-cpu", "Client CPU", "cores", ["cores"]);
    chart("chart-connections", "Connections", "connections, per second", ["open", "opened/s", "requests/connection"],
          { right: [["requests/connection"], "requests/connection"] });
  }

  const column = (key) => state.points.map((p) => (p[key] === undefined ? null : p[key]));
  // A log axis has no place for 0 (an interval without requests): no point there.
  const positive = (key) => column(key).map((v) => (v !== null && v > 0 ? v : null));
  const perSecond = (p, n) => (p.s > 0 ? n / p.s : n);

  function redraw() {
    const t = column("t");
    const set = (id, cols) => {
      const c = state.charts[id];
      try {
        if (c) { c.setData([t].concat(cols)); }
      } catch (e) {
        state.chartErrors = (state.chartErrors || []).concat([id + ": " + e]); // one chart's trouble, not the page's
      }
    };
    set("chart-throughput", [column("rps")]);
    set("chart-response", [positive("p50"), positive("p90"), positive("p99")]);
    set("chart-connections", [column("conn_open"), column("conn_opened_rps"), column("req_per_conn")]);
    set("chart-sessions", [column("active")]);
    set("chart-lateness", [column("late_p99"), column("late_max")]);
    set("chart-cpu", [column("cpu")]);
    const classes = [];
    for (const p of state.points) {
      for (const k of Object.keys(p.errors_by_class || {})) { if (!classes.includes(k)) { classes.push(k); } }
    }
    if (classes.length > 0 && classes.join() !== state.errorClasses.join()) {
      state.errorClasses = classes;
      chart("chart-errors", "Errors by class", "errors/s", classes);
    }
    if (state.errorClasses.length === 0) {
      set("chart-errors", [state.points.map((p) => perSecond(p, p.errors))]);
    } else {
      set("chart-errors", state.errorClasses.map((k) =>
        state.points.map((p) => perSecond(p, (p.errors_by_class || {})[k] || 0))));
    }
    if (state.capture) {
      const w = (g, q) => state.points.map((p) => (p.wire && p.wire[g].count > 0 ? p.wire[g][q] : null));
      set("chart-wire", [w("reused", "p50"), w("reused", "p99"), w("new", "p50"), w("new", "p99")]);
    }
  }

  function figures(j) {
    const rp = j.run_phase || {};
    text("run-requests", rp.requests);
    text("run-throughput", fixed(rp.throughput_rps, 3));
    text("run-p50", fixed(rp.p50, 3));
    text("run-p90", fixed(rp.p90, 3));
    text("run-p99", fixed(rp.p99, 3));
    text("run-errors", rp.errors);
    const p = state.points[state.points.length - 1];
    if (p) {
      text("last-requests", p.requests);
      text("last-rps", fixed(p.rps, 1));
      text("last-p50", fixed(p.p50, 3));
      text("last-p90", fixed(p.p90, 3));
      text("last-p99", fixed(p.p99, 3));
      text("last-errors", p.errors);
      text("last-active", p.active);
      text("last-lateness", fixed(p.late_p99, 3));
      text("last-cpu", fixed(p.cpu, 2));
      if (p.wire) {
        text("wire-last-reused-p50", p.wire.reused.count > 0 ? fixed(p.wire.reused.p50, 1) : "-");
        text("wire-last-reused-p99", p.wire.reused.count > 0 ? fixed(p.wire.reused.p99, 1) : "-");
        text("wire-last-new-p50", p.wire["new"].count > 0 ? fixed(p.wire["new"].p50, 1) : "-");
        text("wire-last-new-p99", p.wire["new"].count > 0 ? fixed(p.wire["new"].p99, 1) : "-");
      }
    }
    if (j.wire) {
      const t = j.wire.total;
      text("wire-total-label", j.wire.complete ? "whole run (final)" : "whole run so far");
      text("wire-reused-p50", fixed(t.reused.p50, 1));
      text("wire-reused-p99", fixed(t.reused.p99, 1));
      text("wire-new-p50", fixed(t["new"].p50, 1));
      text("wire-new-p99", fixed(t["new"].p99, 1));
      text("wire-count", t.all.count);
      text("wire-packets", j.wire.packets);
      text("wire-drops", j.wire.kernel_drops + j.wire.interface_drops);
    }
  }

  function header(j) {
    text("run", j.run);
    text("status", j.status);
    $("status").className = j.status;
    text("phase", j.phase);
    const running = j.t !== undefined && j.phase !== "ended" && j.phase !== "draining";
    text("clock", running ? fixed(j.t, 0) + " s" + (j.phases ? " of " + fixed(j.phases.end, 0) + " s" : "") : "");
    text("shards", j.shards ? j.shards + " shards summed" : (j.shard !== undefined ? "shard " + j.shard : ""));
  }

  async function showSummary() {
    const r = await fetch("summary.json", { cache: "no-store" });
    if (!r.ok) { return; }
    const s = await r.json();
    state.summary = s;
    const run = (s.response_time_ms || {}).run || {};
    text("sum-status", s.status);
    text("sum-stop-reason", s.stop_reason);
    text("sum-requests", s.requests);
    text("sum-throughput", fixed(s.throughput_rps, 3));
    const runPercentiles = [run.p50, run.p90, run.p99, run.p99_9].map((v) => fixed(v, 3)).join(" / ");
    text("sum-run", run.count + " requests, " + runPercentiles);
    const errs = Object.entries(s.errors_by_class || {}).map(([k, v]) => k + " " + v).join(", ");
    text("sum-errors", (s.errors || 0) + (errs ? " (" + errs + ")" : ""));
    text("sum-verdict", (s.client_health || {}).verdict || "");
    $("summary").hidden = false;
    state.done = true;
  }

  async function tick() {
    try {
      const r = await fetch("live.json?from=" + state.next, { cache: "no-store" });
      if (!r.ok) { text("note", "(waiting for the run)"); return; }
      const j = await r.json();
      text("note", "");
      if (j.capture && !state.capture) {
        state.capture = true;
        $("wire-table").hidden = false;
        $("chart-wire").hidden = false;
        chart("chart-wire", "Client minus wire (requests joined each interval)", "us",
              ["reused p50", "reused p99", "new p50", "new p99"]);
      }
      state.phases = j.phases || null;
      for (const p of j.points) {
        if (state.points.length === 0 || p.seq > state.points[state.points.length - 1].seq) { state.points.push(p); }
      }
      if (state.points.length > MAX_POINTS) { state.points.splice(0, state.points.length - MAX_POINTS); }
      state.next = j.next;
      header(j);
      figures(j);
      redraw();
      state.updates++;
      if (j.summary && !state.done) { await showSummary(); }
    } catch (e) {
      text("note", "(the run's endpoint does not answer: the run has ended, or not started)");
    }
  }

  makeCharts();
  tick();
  setInterval(() => { if (!state.done) { tick(); } }, 1000);
})();
