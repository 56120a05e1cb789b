"""A robot arm from its URDF file: the Franka Emika Panda, planned, tracked and exported
=====================================================================================

The Panda's URDF (from the example-robot-data package) becomes a Composite of jourdain blocks
with `jd.from_urdf`: seven revolute joints with their axes, origins, inertials, damping and
limits; the two gripper fingers are locked. On it we

1. compute gravity compensation, the joint torques that hold the arm at rest (inverse
   dynamics with zero speed and acceleration, τ_g = −q(t, y, 0, 0, p)), and check by
   simulation that the arm stays put;

2. plan a rest-to-rest point-to-point motion in 1.2 s with a TrajectoryProblem under the
   torque, speed and joint limits of the URDF (minimum ∫|τ|² dt);

3. track the plan in simulation with the planned torques as feedforward (the computed torque
   along the plan) plus a PID on the tracking error, built from signal blocks (tables, angle
   sensors, sums, PID), with a 1 kg heavier hand than the plan assumed;

4. export the actuated arm as an FMI 2.0 FMU (model exchange and co-simulation) and, when
   FMPy is installed, simulate the FMU holding the arm with the gravity torques.

You will see the gravity torques, the drift of the held arm, the plan's cost and peak torques,
the tracking errors with and without the PID, the FMU's size and its drift in FMPy, and
out/robot_arm.png.
"""
# %%
# The arm from its URDF file
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

import jourdain as jd
from jourdain.blocks import PID, Add, AngleSensor, Table, World
from jourdain.solver.exchange import UnsupportedWarning, example_robot

URDF = example_robot("panda_description/urdf/panda.urdf")
FINGERS = {"panda_finger_joint1": 0.02, "panda_finger_joint2": 0.02}   # [m], locked open
JOINTS = [f"panda_joint{i}" for i in range(1, 8)]


def panda() -> jd.Robot:
    """A fresh Panda with motors on its seven joints (a component is used in one model)."""
    with warnings.catch_warnings():   # <safety_controller> tags: not modelled
        warnings.simplefilter("ignore", UnsupportedWarning)
        arm = jd.from_urdf(URDF, locked=FINGERS)
    arm.add_motors()
    return arm


arm = panda()
print(arm.report())
system = jd.compile(jd.Model.on_world(World(g=arm.gravity), panda=arm))
Q = [arm.coordinate_names(j)[0] for j in JOINTS]            # panda.panda_joint1.phi, ...
W = [arm.speed_names(j)[0] for j in JOINTS]
TAU = [f"panda.{j}_motor.tau" for j in JOINTS]
assert system.y_names == Q and system.u_names == TAU
print(system)

# %%
# 1. Gravity compensation: the torques that hold the arm at rest
q_a = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])    # "ready" pose [rad]
q_b = np.array([0.8, -0.3, 0.3, -1.8, 0.2, 1.9, 0.5])            # goal [rad]
p = system.p_default


def gravity_torques(q) -> np.ndarray:
    """τ_g(q) = −q(t, y = q, z = 0, u = 0, p): inverse dynamics at rest."""
    return -np.array(system.q(0.0, q, np.zeros(7), np.zeros(7), p)).ravel()


tau_g = gravity_torques(q_a)
held = system.simulate(2.0, y0=dict(zip(Q, q_a)), inputs=dict(zip(TAU, tau_g)))
drift = max(np.abs(held[n] - v).max() for n, v in zip(Q, q_a))
print("gravity torques at the ready pose [N·m]:", np.round(tau_g, 3) + 0.0)
print(f"held for 2 s with them: largest joint drift {drift:.1e} rad")

# %%
# 2. Point-to-point motion under the URDF's limits
T = 1.2
ocp = jd.TrajectoryProblem(system, horizon=T, intervals=20)
ocp.initial({**dict(zip(Q, q_a)), **dict.fromkeys(W, 0.0)})
ocp.final({**dict(zip(Q, q_b)), **dict.fromkeys(W, 0.0)})
for name, (lower, upper) in arm.bounds(system).items():      # joint, speed and torque limits
    ocp.bound(name, lower, upper)
ocp.integral_cost(lambda v: sum(v[n] ** 2 for n in TAU))
plan = ocp.solve(jd.Collocation(degree=3))
effort = np.array([arm.limits[j].effort for j in JOINTS])
peak = np.array([np.abs(plan[n]).max() for n in TAU])
print(f"plan: cost {plan.cost:.1f} N²·m²·s in {plan.stats['iterations']} iterations; peak "
      f"torque / limit per joint: {np.round(peak / effort, 2)}")
# the planned motion in 3-D with the Panda's own meshes (open the file in a browser)
Path("out").mkdir(exist_ok=True)
plan.animate("out/robot_arm.html", title="Panda point-to-point plan (minimum torque)")


# %%
# 3. Tracking the plan: feedforward of the planned torques plus a PID, from signal blocks
def tracking_model(kp, ki, kd) -> jd.Model:
    """The arm, its motors driven by τ = τ_plan(t) + PID(q_plan − q) + kd·(w_plan − w)."""
    robot = panda()
    model = jd.Model.on_world(World(g=robot.gravity), panda=robot)
    # the planned torques are constant on each interval: a table with a step at each node
    t = np.column_stack([plan.t[:-1], plan.t[1:] - 1e-9]).ravel()
    u_plan = np.repeat(plan.inputs_at(plan.t[:-1]), 2, axis=1)
    for i, joint in enumerate(JOINTS, start=1):
        blocks = {"sensor": AngleSensor(), "q_ref": Table(plan.t, plan[Q[i - 1]]),
                  "w_ref": Table(plan.t, plan[W[i - 1]]), "ff": Table(t, u_plan[i - 1]),
                  "e_q": Add(1, -1), "e_w": Add(1, -1), "pi": PID(kp[i - 1], ki[i - 1]),
                  "pid": Add(1, kd[i - 1]), "tau": Add(1, 1)}
        b = {name: model.add(f"{name}{i}", block) for name, block in blocks.items()}
        for a, c in ((b["sensor"].flange, robot.joints[joint].axis),
                     (b["q_ref"].y, b["e_q"].u1), (b["sensor"].phi, b["e_q"].u2),
                     (b["w_ref"].y, b["e_w"].u1), (b["sensor"].w, b["e_w"].u2),
                     (b["e_q"].y, b["pi"].e), (b["pi"].y, b["pid"].u1),
                     (b["e_w"].y, b["pid"].u2), (b["ff"].y, b["tau"].u1),
                     (b["pid"].y, b["tau"].u2), (b["tau"].y, robot.motors[joint].tau)):
            model.connect(a, c)
    return model


# gains from each joint's inertia at the start: a triple closed-loop pole at -omega
inertia = np.diag(np.array(system.M(q_a, p)))               # [kg·m²] about each joint
omega = 40.0                                                 # [rad/s]
pid = (3 * inertia * omega**2, inertia * omega**3, 3 * inertia * omega)
HAND = "panda.panda_link7.m"                                 # link 7 with the hand welded on
runs = {}
for label, gains, payload in (("feedforward only", (0 * inertia,) * 3, 0.0),
                              ("feedforward + PID", pid, 0.0),
                              ("feedforward + PID, +1 kg in the hand", pid, 1.0)):
    loop = jd.compile(tracking_model(*gains), parameters=[HAND])
    hand = {HAND: loop.p_default[0] + payload}
    runs[label] = run = loop.simulate(T + 0.5, y0=dict(zip(Q, q_a)), params=hand, n_out=341)
    moving = run.t <= T
    error = max(np.abs(run[n][moving] - np.interp(run.t[moving], plan.t, plan[n])).max()
                for n in Q)
    final = max(abs(run[n][-1] - v) for n, v in zip(Q, q_b))
    print(f"{label:>36}: largest error during the motion {error:.1e} rad; 0.5 s after it "
          f"{final:.1e} rad from the goal")
print("(open loop, the arm drifts off the plan: the pose is an unstable equilibrium and the "
      "plan is exact only to its discretization)")

# %%
# 4. The actuated arm as an FMU
fmu = system.export_fmu("out/panda.fmu", y0=dict(zip(Q, q_a)))
print(f"FMU {fmu} ({fmu.stat().st_size / 1024:.0f} kB): {system.nx} states, "
      f"{len(TAU)} inputs, model exchange and co-simulation")
try:
    import fmpy
except ImportError:
    print("(install fmpy to simulate the FMU: pip install fmpy)")
else:
    out = fmpy.simulate_fmu(str(fmu), fmi_type="CoSimulation", stop_time=2.0,
                            output_interval=0.01, start_values=dict(zip(TAU, tau_g)),
                            output=Q)
    fmu_drift = max(np.abs(out[n] - v).max() for n, v in zip(Q, q_a))
    print(f"the FMU in FMPy (co-simulation), held by the gravity torques for 2 s: largest "
          f"drift {fmu_drift:.1e} rad")

# %%
# Figure
fig, axes = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
tracked = runs["feedforward + PID, +1 kg in the hand"]
for i, name in enumerate(Q[:4]):
    line, = axes[0].plot(plan.t, plan[name], "--", lw=1)
    axes[0].plot(tracked.t, tracked[name], color=line.get_color(), label=f"joint {i + 1}")
    axes[1].step(plan.t[:-1], plan.inputs_at(plan.t[:-1])[i], "--", where="post", lw=1,
                 color=line.get_color())
    axes[1].plot(tracked.t, tracked[f"tau{i + 1}.y"], color=line.get_color())
axes[0].set_ylabel("joint angle [rad]")
axes[0].legend(loc="best", fontsize=8)
axes[0].set_title("Panda point-to-point: plan (dashed), tracked with a 1 kg payload (solid)",
                  fontsize=10)
axes[1].set_ylabel("motor torque [N·m]")
axes[1].set_xlabel("t [s]")
fig.tight_layout()
fig.savefig("out/robot_arm.png", dpi=120)
print("figure: out/robot_arm.png")
