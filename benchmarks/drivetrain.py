"""Benchmark: a gear as an eliminated coupling of the 1-D network vs the same gear as a closure
constraint, on a robot-axis-like drive train (motor rotor → gear → n arm links in a chain).

For the same physics, in one run:
  eliminated — the rotors are Inertias behind IdealGears on the joint axes: the gear relation
               φ_rotor = r·φ_joint is solved in the 1-D network, one coordinate per joint, a
               plain SX f (the default of jourdain);
  partitioned — each rotor is a RigidBody on its own Revolute and the IdealGear couples the two
               joint axes: a closure equation per gear, solved by Newton inside f
               (ConstraintMethod.PARTITIONING);
  dae         — the same closure equations with multipliers (ConstraintMethod.DAE, IDAS).
All three must agree on the joint angles (max deviation printed). CPU time (process_time),
medians of --repeat: compile, one f evaluation from Python (NumericFunction), and a 2 s
simulation at rtol = atol = 1e-8 with a torque profile on every motor. Prints a table with
ratios to the eliminated form and writes benchmarks/results/drivetrain.json.

    python benchmarks/drivetrain.py [--links 1 6 12] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jourdain as jd  # noqa: E402
from jourdain.blocks import (FixedTranslation, IdealGear, Inertia, Motor, Revolute,  # noqa: E402
                             RigidBody, World)

RATIO, J_ROTOR = 100.0, 2e-4


class GearedChain(jd.Composite):
    """n links in a planar chain, each joint driven by a motor through a gear; the rotor is a
    1-D Inertia (``rigid_rotor=False``) or a RigidBody on its own revolute whose axis the gear
    couples to the link's joint (``rigid_rotor=True``, a closure equation per gear)."""

    def __init__(self, n: int, rigid_rotor: bool):
        super().__init__()
        parent = None
        for i in range(n):
            joint = self.add(f"joint{i}", Revolute(axis=(0, 0, 1)))
            link = self.add(f"link{i}", RigidBody(m=1.0, r_cm=(0.25, 0, 0),
                                                  I=(1e-3, 5e-3, 5e-3)))
            self.connect(joint.frame_b, link.frame_a)
            if parent is not None:
                end = self.add(f"end{i}", FixedTranslation(r=(0.5, 0, 0)))
                self.connect(parent.frame_b, end.frame_a)
                self.connect(end.frame_b, joint.frame_a)
            self._drive(i, joint, parent, rigid_rotor)
            parent = joint
        self.expose(self.joint0.frame_a, "frame_a")

    def _drive(self, i, joint, parent, rigid_rotor) -> None:
        gear, motor = self.add(f"gear{i}", IdealGear(ratio=RATIO)), self.add(f"motor{i}", Motor())
        self.connect(gear.flange_b, joint.axis)
        if not rigid_rotor:
            rotor = self.add(f"rotor{i}", Inertia(J=J_ROTOR))
            self.connect(motor.flange_b, rotor.flange_a)
            self.connect(rotor.flange_b, gear.flange_a)
            return
        shaft = self.add(f"shaft{i}", Revolute(axis=(0, 0, 1)))
        rotor = self.add(f"rotor{i}", RigidBody(m=0.1, I=(J_ROTOR / 2, J_ROTOR / 2, J_ROTOR)))
        # The 1-D rotor spins at r·φ_rel without feeling the link's rotation: a rotor body on a
        # shaft fixed to the ground has exactly that kinetic energy.
        self.connect(self.joint0.frame_a, shaft.frame_a)
        self.connect(shaft.frame_b, rotor.frame_a)
        self.connect(motor.flange_b, shaft.axis)
        self.connect(shaft.axis, gear.flange_a)


def _model(n: int, rigid: bool):
    return jd.Model.on_world(World(g=(0.0, -9.81, 0.0)), arm=GearedChain(n, rigid))


def _cpu(fn, repeat: int):
    times, value = [], None
    for _ in range(repeat):
        start = time.process_time()
        value = fn()
        times.append(time.process_time() - start)
    return float(np.median(times)), value


def run_case(n: int, repeat: int) -> dict:
    forms = {"eliminated": (False, {}), "partitioned": (True, {}),
             "dae": (True, {"constraints": jd.ConstraintMethod.DAE})}
    inputs = {f"arm.motor{i}.tau": (lambda t, i=i: 0.02 * np.sin(3 * t + i)) for i in range(n)}
    out, angles = {}, {}
    for name, (rigid, options) in forms.items():
        t_compile, system = _cpu(lambda: jd.compile(_model(n, rigid), **options), repeat)
        f = system.numeric("f")
        x = system.state()
        u, p = np.zeros(len(system.u_names)), system.p_default
        t_f, _ = _cpu(lambda: [f(0.0, x, u, p) for _ in range(200)], repeat)
        t_sim, res = _cpu(lambda: system.simulate(2.0, inputs=inputs, n_out=201), repeat)
        angles[name] = np.array([res[f"arm.joint{i}.phi"] for i in range(n)])
        out[name] = {"compile_s": t_compile, "f_us": 1e6 * t_f / 200, "simulate_s": t_sim,
                     "states": system.nx, "f_instructions": system.f.n_instructions()
                     if system.f.is_a("SXFunction") else None}
    for name in ("partitioned", "dae"):
        out[name]["max_angle_deviation"] = float(np.abs(angles[name] - angles["eliminated"]).max())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, nargs="+", default=[1, 6, 12])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = {"machine": platform.platform(), "python": platform.python_version(),
               "casadi": __import__("casadi").__version__, "cases": {}}
    print(f"{'links':>5} {'form':<12} {'states':>6} {'compile s':>10} {'f µs':>9} "
          f"{'sim 2 s':>9} {'× elim.':>8} {'max Δφ':>9}")
    for n in args.links:
        case = run_case(n, args.repeat)
        results["cases"][str(n)] = case
        base = case["eliminated"]["simulate_s"]
        for name, row in case.items():
            print(f"{n:>5} {name:<12} {row['states']:>6} {row['compile_s']:>10.3f} "
                  f"{row['f_us']:>9.1f} {row['simulate_s']:>9.3f} "
                  f"{row['simulate_s'] / base:>8.1f} {row.get('max_angle_deviation', 0):>9.1e}")
    path = ROOT / "benchmarks" / "results" / "drivetrain.json"
    path.write_text(json.dumps(results, indent=2))
    print(f"written {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
