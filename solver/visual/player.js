// jourdain's animation player: a MeshCat viewer (three.js, orbit camera, scene tree) fed
// with the shapes and keyframes of one or more runs, with play/pause, a time slider, speed
// control, view presets (front, side, top, iso) and a reset of the view; traces of chosen
// points grow with the time shown. MeshCat's own control panel (dat.GUI) is folded into the
// "scene" button. URL parameters: ?t=1.5 shows model time 1.5 s paused, ?play=0 starts
// paused, ?view=top starts from a preset.
(function () {
  "use strict";
  var THREE = MeshCat.THREE;
  var data = JSON.parse(document.getElementById("jd-data").textContent);
  var viewer = new MeshCat.Viewer(document.getElementById("jd-pane"));
  window.jourdain = {viewer: viewer, data: data};

  function bytes(b64) {
    var bin = atob(b64), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out.buffer;
  }
  function floats(b64) { return new Float32Array(bytes(b64)); }

  function geometry(shape) {
    var g;
    if (shape.kind === "box") return new THREE.BoxGeometry(1, 1, 1);
    if (shape.kind === "sphere") return new THREE.SphereGeometry(1, 32, 16);
    if (shape.kind === "cylinder") {
      g = new THREE.CylinderGeometry(1, 1, 1, 32);
      g.rotateX(Math.PI / 2);               // three's cylinders lie along y, ours along z
      return g;
    }
    if (shape.kind === "capsule") {
      var pts = [], r = shape.radius, h = shape.length / 2, n = 12;
      for (var i = 0; i <= n; i++) {
        var a = -Math.PI / 2 + Math.PI / 2 * i / n;
        pts.push(new THREE.Vector2(r * Math.cos(a), -h + r * Math.sin(a)));
      }
      for (var j = 0; j <= n; j++) {
        var b = Math.PI / 2 * j / n;
        pts.push(new THREE.Vector2(r * Math.cos(b), h + r * Math.sin(b)));
      }
      g = new THREE.LatheGeometry(pts, 32);
      g.rotateX(Math.PI / 2);
      return g;
    }
    g = new THREE.BufferGeometry();           // mesh: vertices and triangle indices
    g.setAttribute("position", new THREE.BufferAttribute(floats(shape.vertices), 3));
    g.setIndex(new THREE.BufferAttribute(new Uint32Array(bytes(shape.faces)), 1));
    if (shape.colors) {                       // the mesh file's own colours, per vertex
      g.setAttribute("color", new THREE.BufferAttribute(floats(shape.colors), 3));
    }
    g.computeVertexNormals();
    return g;
  }

  function material(shape, opacity) {
    var c = shape.colors ? [1, 1, 1] : shape.color, o = shape.opacity * opacity;
    return new THREE.MeshPhongMaterial({color: new THREE.Color(c[0], c[1], c[2]),
      vertexColors: !!shape.colors, transparent: o < 1, opacity: o, depthWrite: o >= 1,
      side: THREE.DoubleSide});
  }

  // MeshCat's control panel: hidden, shown by the "scene" button (scene tree, lights, grid)
  viewer.gui.domElement.style.display = "none";
  viewer.gui.domElement.id = "jd-meshcat-controls";

  viewer.set_transform(["jourdain"], data.root);
  ["Grid", "Axes"].forEach(function (name) {
    var matrix = data[name.toLowerCase()];
    if (matrix) viewer.set_transform([name], matrix);
    else viewer.set_property([name], "visible", false);
  });

  var animations = [];
  data.runs.forEach(function (run) {
    var times = floats(run.times);
    run.shapes.forEach(function (shape) {
      var path = ["jourdain", run.key].concat(shape.name.split("/"));
      viewer.set_object(path, new THREE.Mesh(geometry(shape), material(shape, run.opacity)));
      var node = viewer.scene_tree.find(path).object;
      var pos = floats(shape.position), quat = floats(shape.quaternion);
      var scale = floats(shape.scale);
      node.position.fromArray(pos);
      node.quaternion.fromArray(quat);
      node.scale.fromArray(scale);
      var tracks = [];
      if (pos.length > 3) {
        tracks.push({name: ".position", type: "vector3", times: times, values: pos});
        tracks.push({name: ".quaternion", type: "quaternion", times: times, values: quat});
      }
      if (scale.length > 3) {
        tracks.push({name: ".scale", type: "vector3", times: times, values: scale});
      }
      if (tracks.length) {
        animations.push({path: path, clip: {name: run.key + "/" + shape.name,
          duration: data.duration, tracks: tracks}});
      }
    });
  });

  // traces: a line through a point's positions, drawn up to the time shown
  var TRACE_COLORS = [[0.85, 0.1, 0.55], [1.0, 0.55, 0.0], [0.0, 0.6, 0.55], [0.35, 0.3, 0.9]];
  var traces = [];
  data.runs.forEach(function (run) {
    var times = floats(run.times);
    (run.traces || []).forEach(function (trace, i) {
      var g = new THREE.BufferGeometry(), c = TRACE_COLORS[i % TRACE_COLORS.length];
      g.setAttribute("position", new THREE.BufferAttribute(floats(trace.points), 3));
      var line = new THREE.Line(g, new THREE.LineBasicMaterial({
        color: new THREE.Color(c[0], c[1], c[2]), transparent: run.opacity < 1,
        opacity: run.opacity}));
      viewer.set_object(["jourdain", run.key, "traces", trace.name.replace(/\//g, "_")], line);
      traces.push({geometry: g, times: times});
    });
  });
  function drawTraces(t) {
    traces.forEach(function (trace) {
      var lo = 0, hi = trace.times.length;       // samples with time ≤ t
      while (lo < hi) { var mid = (lo + hi) >> 1; if (trace.times[mid] <= t) lo = mid + 1; else hi = mid; }
      trace.geometry.setDrawRange(0, Math.max(lo, 1));
    });
  }

  var animator = viewer.animator;
  if (animations.length) {
    viewer.set_animation(animations, {play: true, repetitions: Infinity});
  }

  var camera = viewer.camera, controls = viewer.controls;
  camera.near = data.camera.near;
  camera.far = data.camera.far;
  camera.position.fromArray(data.camera.position);
  controls.target.fromArray(data.camera.target);
  controls.update();
  camera.updateProjectionMatrix();
  controls.saveState();

  // ---- controls -------------------------------------------------------------------------
  var play = document.getElementById("jd-play"), slider = document.getElementById("jd-time");
  var clock = document.getElementById("jd-clock"), speed = document.getElementById("jd-speed");
  slider.max = data.duration;
  function now() { return animator.actions.length ? animator.actions[0].time : 0; }
  function show() {
    var t = now();
    slider.value = t;
    clock.textContent = "t = " + (data.t0 + t).toFixed(3) + " s";
    play.textContent = animator.playing ? "\u275a\u275a" : "\u25b6";
  }
  function toggle() {
    if (animator.playing) animator.pause(); else animator.play();
    show();
  }
  function seek(t) {
    animator.seek(Math.max(0, Math.min(data.duration, t)));
    show();
  }
  play.addEventListener("click", toggle);
  slider.addEventListener("input", function () { seek(parseFloat(slider.value)); });
  speed.addEventListener("change", function () {
    animator.mixer.timeScale = parseFloat(speed.value);
  });
  document.getElementById("jd-view").addEventListener("click", function () {
    controls.reset();
    viewer.set_dirty();
  });
  // view presets in three.js's native axes (y is the model's up; z the model's z for y-up
  // models): the same target and distance, seen from the front, the side, above or askew
  var PRESETS = {front: [0, 0, 1], side: [1, 0, 0], top: [0, 1, 1e-3], iso: [1, 0.8, 1]};
  function preset(name) {
    var d = new THREE.Vector3().fromArray(PRESETS[name]).normalize();
    var dist = camera.position.distanceTo(controls.target);
    camera.position.copy(controls.target).addScaledVector(d, dist);
    controls.update();
    viewer.set_dirty();
  }
  Object.keys(PRESETS).forEach(function (name) {
    document.getElementById("jd-" + name).addEventListener("click", function () {
      preset(name);
    });
  });
  document.getElementById("jd-scene").addEventListener("click", function () {
    var panel = viewer.gui.domElement, shown = panel.style.display !== "none";
    panel.style.display = shown ? "none" : "";
    if (!shown) viewer.gui.open();
  });
  window.jourdain.preset = preset;
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.code === "Space") { toggle(); e.preventDefault(); }
    if (e.code === "ArrowRight") seek(now() + data.duration / 100);
    if (e.code === "ArrowLeft") seek(now() - data.duration / 100);
  });
  var shownT = -1;
  (function loop() {
    show();
    if (traces.length && now() !== shownT) {
      shownT = now();
      drawTraces(shownT);
      viewer.set_dirty();
    }
    requestAnimationFrame(loop);
  })();

  var legend = document.getElementById("jd-legend");
  if (data.runs.length > 1) {
    data.runs.forEach(function (run) {
      var row = document.createElement("div");
      row.textContent = run.label;
      row.style.opacity = Math.max(run.opacity, 0.45);
      legend.appendChild(row);
    });
  }

  var query = new URLSearchParams(window.location.search);
  if (query.has("t") || query.get("play") === "0") {
    if (animator.playing) animator.pause();
    if (query.has("t")) seek(parseFloat(query.get("t")) - data.t0);
  }
  if (PRESETS.hasOwnProperty(query.get("view"))) preset(query.get("view"));
  drawTraces(now());
  show();
  viewer.set_dirty();
  document.body.setAttribute("data-ready", "1");
})();
