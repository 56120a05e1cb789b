"""Benchmark: robots in (URDF) and out (FMU), side by side with Pinocchio.

Robots of the example-robot-data package: Panda and UR5 (fixed base), Solo-12, ANYmal C and
Talos (reduced) on a free-flyer. For each, in one run on one machine (medians):

  import_s      jd.from_urdf (yourdfpy parse + blocks)          pin_build_s  pin.buildModelFromUrdf
  compile_s     jd.compile (Backend.AUTO)                       backend      the back end it chose
  fmu_cold_s    system.export_fmu with an empty cache (CasADi C + gcc -O1 + zip)
  fmu_warm_s    the same export once the library is cached
  f_us          ẋ = f(t, x, u, p) called from Python (system.numeric, CasADi VM)
  f_c_us        the same after system.codegen() (the C code the FMU also runs)
  aba_us        pin.aba from Python (Pinocchio's C++)
  cs_1s         1 s of the FMU in FMPy's co-simulation (embedded DOPRI5, tol 1e-8, no input)
  dM            max |M − M_pin| / max |M_pin| at a random state (floating base: through the
                velocity map of tests/test_urdf.py)

    python benchmarks/exchange.py            (writes benchmarks/results/exchange.json)
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import fmpy  # noqa: E402
import pinocchio as pin  # noqa: E402

import jourdain as jd  # noqa: E402
from benchmarks.scale import median_us  # noqa: E402
from jourdain.blocks import World  # noqa: E402
from jourdain.solver.exchange import UnsupportedWarning, example_robot  # noqa: E402

ROBOTS = {"panda": ("panda_description/urdf/panda.urdf", False),
          "ur5": ("ur_description/urdf/ur5_robot.urdf", False),
          "solo12": ("solo_description/robots/solo12.urdf", True),
          "anymal_c": ("anymal_c_simple_description/urdf/anymal.urdf", True),
          "talos_reduced": ("talos_data/robots/talos_reduced.urdf", True)}


def median_s(call, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def case(name: str, relative: str, floating: bool, tmp: Path) -> dict:
    path = example_robot(relative)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        # mimic=False: the fingers move on their own, as in Pinocchio's default parse (a
        # mimic is a closure equation, and a partitioned System does not export as an FMU)
        load = lambda: jd.from_urdf(path, floating_base=floating, mimic=False)  # noqa: E731
        row = {"robot": name, "import_s": median_s(load)}
        robot = load()
    root = pin.JointModelFreeFlyer() if floating else None
    build = (lambda: pin.buildModelFromUrdf(str(path), root)) if floating else \
        (lambda: pin.buildModelFromUrdf(str(path)))
    row["pin_build_s"] = median_s(build)
    model = build()
    start = time.perf_counter()
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    row["compile_s"] = time.perf_counter() - start
    row["backend"] = system.backend.value
    row["dofs"] = len(system.z_names)
    fmu = tmp / f"{name}.fmu"
    for key in ("fmu_cold_s", "fmu_warm_s"):
        start = time.perf_counter()
        system.export_fmu(fmu, cache_dir=tmp / "cache")
        row[key] = time.perf_counter() - start
    x, p = system.state(), system.p_default
    f = system.numeric("f")
    row["f_us"] = median_us(lambda: f(0.0, x, np.zeros(0), p))
    system.codegen(cache_dir=tmp / "cache")
    f_c = system.numeric("f")
    row["f_c_us"] = median_us(lambda: f_c(0.0, x, np.zeros(0), p))
    data, q, v = model.createData(), pin.neutral(model), np.zeros(model.nv)
    row["aba_us"] = median_us(lambda: pin.aba(model, data, q, v, v))
    start = time.perf_counter()
    fmpy.simulate_fmu(str(fmu), fmi_type="CoSimulation", stop_time=1.0, output_interval=0.01)
    row["cs_1s"] = time.perf_counter() - start
    row["dM"] = mass_matrix_error(robot, system, model, floating)
    return row


def mass_matrix_error(robot, system, model, floating: bool) -> float:
    rng = np.random.default_rng(0)
    first = 2 if floating else 1
    y = rng.uniform(-1, 1, len(system.y_names))
    q = pin.neutral(model)
    perm = []
    if floating:
        yb = [system.y_names.index(n) for n in robot.coordinate_names("root_joint")]
        quat = rng.normal(size=4)
        y[yb[3:]] = quat / np.linalg.norm(quat)
        q[:3], q[3:7] = y[yb[:3]], y[yb[3:]][[1, 2, 3, 0]]
        perm = [system.z_names.index(n) for n in robot.speed_names("root_joint")]
    for jid in range(first, model.njoints):
        joint, name = model.joints[jid], model.names[jid]
        iy = system.y_names.index(robot.coordinate_names(name)[0])
        q[joint.idx_q:joint.idx_q + joint.nq] = y[iy] if joint.nq == 1 else \
            (np.cos(y[iy]), np.sin(y[iy]))
        perm.append(system.z_names.index(robot.speed_names(name)[0]))
    T = np.eye(model.nv)
    if floating:
        T[:3, :3] = pin.Quaternion(q[6], q[3], q[4], q[5]).toRotationMatrix()
    M = T.T @ np.array(system.M(y, system.p_default))[np.ix_(perm, perm)] @ T
    M_pin = pin.crba(model, model.createData(), q)
    M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
    return float(np.abs(M - M_pin).max() / np.abs(M_pin).max())


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (relative, floating) in ROBOTS.items():
            rows.append(case(name, relative, floating, Path(tmp)))
            print(rows[-1], flush=True)
    cols = ["robot", "dofs", "import_s", "pin_build_s", "compile_s", "backend", "fmu_cold_s",
            "fmu_warm_s", "f_us", "f_c_us", "aba_us", "cs_1s", "dM"]
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for row in rows:
        print("| " + " | ".join(f"{row[c]:.3g}" if isinstance(row[c], float) else str(row[c])
                                for c in cols) + " |")
    out = ROOT / "benchmarks" / "results" / "exchange.json"
    out.write_text(json.dumps(rows, indent=1))
    print(f"written {out}")


if __name__ == "__main__":
    main()
