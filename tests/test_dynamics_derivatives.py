"""Derivatives of the forward dynamics by the recursive algorithms (solver/equations/ltdl.py,
solver/optimal/dynamics_derivatives.py: ∂a/∂ξ = −M⁻¹·∂ID/∂ξ, M⁻¹ by the tree's LTDL).

References: numpy's dense solve (the LTDL solve), central finite differences of f and
CasADi's forward-mode AD of the expanded f (the derivative blocks, two independent methods),
Pinocchio's ``computeABADerivatives`` on its own parse of the same URDF (an established
peer), and FDDP's optimum of the same problem with either form of the derivatives (two
formulations of one model).
"""
import warnings

import casadi as ca
import numpy as np
import pytest

import jourdain as jd
from jourdain.blocks import (Composite, FirstOrder, Inertia, Motor, Revolute, RigidBody,
                             World)
from jourdain.solver.equations.ltdl import ltdl, ltdl_solve, tree_parents
from jourdain.solver.exchange import UnsupportedWarning, example_robot, from_urdf
from jourdain.solver.optimal import dynamics_derivatives as dd

PANDA = "panda_description/urdf/panda.urdf"
UR5 = "ur_description/urdf/ur5_robot.urdf"
SOLO = "solo_description/robots/solo12.urdf"


def _robot(relative: str, armature: float = 0.0, **options):
    """The URDF with a motor on every joint (u = joint torques), no joint damping, and
    ``armature`` [kg·m²] of rotor inertia (a 1-D Inertia) on every motor's joint axis."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsupportedWarning)
        robot = from_urdf(example_robot(relative), joint_damping=False, **options)
    robot.add_motors()
    if armature:
        for name in list(robot.motors):
            rotor = robot.add(f"{robot.child_name(name)}_rotor", Inertia(J=armature))
            robot.connect(rotor.flange_a, robot.joints[name].axis)
    system = jd.compile(jd.Model.on_world(World(g=robot.gravity), r=robot))
    return robot, system


def _state(system, rng):
    x = rng.uniform(-1, 1, system.nx)
    for name in system.y_names:   # unit quaternions where the floating base has them
        if name.endswith(".q0"):
            i = system.y_names.index(name)
            quat = rng.normal(size=4)
            x[i:i + 4] = quat / np.linalg.norm(quat)
    return x, rng.uniform(-1, 1, len(system.u_names))


def _blocks(fj, system, x, u):
    return [np.array(b, dtype=float) for b in fj(0.0, x, u, system.p_default)]


def test_ltdl_solve_equals_a_dense_solve_on_a_branched_tree(rng):
    """Reference: numpy.linalg.solve. A random SPD matrix with the branch-induced sparsity
    of a branched tree (λ = −1, 0, 1, 1, 0, 4, 4: two branches at 1 and 4) is factored
    without fill-in and M⁻¹·B agrees with the dense solve to 1e-12."""
    parents = [-1, 0, 1, 1, 0, 4, 4]
    n = len(parents)
    mask = np.eye(n, dtype=bool)
    for i in range(n):
        j = parents[i]
        while j >= 0:
            mask[i, j] = mask[j, i] = True
            j = parents[j]
    # a tree-patterned unit L gives Lᵀ·D·L the tree's pattern (a product term L_ki·L_kj needs
    # i and j both on k's path to the root)
    L = np.tril(rng.normal(size=(n, n)) * mask, -1) + np.eye(n)
    dense = L.T @ np.diag(rng.uniform(1, 2, n)) @ L
    rows, cols = np.nonzero(mask)
    M = ca.SX.sym("m", ca.Sparsity.triplet(n, n, rows.tolist(), cols.tolist()))
    assert tree_parents(M) == parents
    B = ca.SX.sym("B", n, 3)
    fn = ca.Function("s", [M, B], [ltdl_solve(ltdl(M, parents), parents, B)])
    b = rng.normal(size=(n, 3))
    got = np.array(fn(ca.project(ca.DM(dense), M.sparsity()), b))
    assert np.abs(got - np.linalg.solve(dense, b)).max() < 1e-12 * np.abs(got).max()


def test_tree_parents_refuses_a_pattern_with_fill_in():
    """Reference: the definition of branch-induced sparsity. Speeds 1 and 2 both couple to 0
    but not to each other (siblings), and 3 couples to 1 and 2: no tree order, so None."""
    pattern = ca.Sparsity.triplet(4, 4, [0, 1, 2, 3, 3, 1, 2, 0, 0, 1, 2],
                                  [0, 1, 2, 3, 1, 0, 0, 1, 2, 3, 3])
    assert tree_parents(ca.SX(pattern, 1)) is None


@pytest.mark.parametrize("relative, options, armature", [
    (PANDA, {"locked": {"panda_finger_joint1": 0.01, "panda_finger_joint2": 0.01}}, 0.1),
    (SOLO, {"floating_base": True}, 0.05),
])
def test_recursive_blocks_equal_forward_ad_and_finite_differences(relative, options,
                                                                  armature, rng):
    """References: CasADi's forward-mode Jacobian of the expanded f, to 1e-9 relative, and
    central differences of f (step 1e-6, truncation O(h²)), to 1e-6 relative; on the Panda
    (7 DOF, fingers locked) and Solo-12 on a floating base (18 speeds, quaternion), both with
    armatures on their motors' axes, at random states and torques."""
    _, system = _robot(relative, armature, **options)
    assert dd.recursive_available(system) is None
    fast, ref = dd.recursive_jacobian(system), dd.forward_jacobian(system)
    f = system.functions["f"]
    for _ in range(2):
        x, u = _state(system, rng)
        got, want = _blocks(fast, system, x, u), _blocks(ref, system, x, u)
        for g, w in zip(got, want):
            assert np.abs(g - w).max() <= 1e-9 * max(1.0, np.abs(w).max())
        h, z = 1e-6, np.r_[x, u]
        fd = np.column_stack([
            (np.array(f(0, (z + h * e)[:system.nx], (z + h * e)[system.nx:],
                        system.p_default)) -
             np.array(f(0, (z - h * e)[:system.nx], (z - h * e)[system.nx:],
                        system.p_default))).ravel() / (2 * h) for e in np.eye(z.size)])
        J = np.hstack(got[1:])
        assert np.abs(J - fd).max() <= 1e-6 * max(1.0, np.abs(fd).max())


def test_recursive_blocks_equal_pinocchio_aba_derivatives(rng):
    """Reference: Pinocchio's computeABADerivatives on its own parse of the UR5's URDF (6
    revolute joints, no damping): ∂a/∂q, ∂a/∂v and ∂a/∂τ = M⁻¹ to 1e-9 relative, and a
    itself, at random states, the joints mapped by name."""
    pin = pytest.importorskip("pinocchio")
    robot, system = _robot(UR5)
    model = pin.buildModelFromUrdf(str(example_robot(UR5)))
    data = model.createData()
    ny = len(system.y_names)
    iy = [system.y_names.index(robot.coordinate_names(model.names[j])[0])
          for j in range(1, model.njoints)]
    iu = [system.u_names.index(f"r.{robot.child_name(model.names[j])}_motor.tau")
          if f"r.{robot.child_name(model.names[j])}_motor.tau" in system.u_names else None
          for j in range(1, model.njoints)]
    assert None not in iu
    fj = dd.recursive_jacobian(system)
    for _ in range(3):
        x, u = _state(system, rng)
        xdot, Fx, Fu = _blocks(fj, system, x, u)
        q, v, tau = x[iy], x[ny:][iy], u[iu]
        pin.computeABADerivatives(model, data, q, v, tau)
        Minv = np.triu(data.Minv) + np.triu(data.Minv, 1).T
        acc = pin.aba(model, data, q, v, tau)
        rows = [ny + i for i in iy]
        for got, want in ((xdot[rows].ravel(), acc),
                          (Fx[np.ix_(rows, iy)], data.ddq_dq),
                          (Fx[np.ix_(rows, [ny + i for i in iy])], data.ddq_dv),
                          (Fu[np.ix_(rows, iu)], Minv)):
            assert np.abs(got - want).max() <= 1e-9 * max(1.0, np.abs(want).max())


class LaggedPendulum(Composite):
    """A pendulum whose motor torque follows its input through a first-order lag (a
    component state: no inverse dynamics of the joints alone)."""

    def __init__(self):
        super().__init__()
        self.joint = Revolute(axis=(0, 0, 1))
        self.bob = RigidBody(m=1.0, r_cm=(0, -1.0, 0))
        self.motor = Motor()
        self.lag = FirstOrder(T=0.1)
        self.connect(self.joint.frame_b, self.bob.frame_a)
        self.connect(self.motor.flange_b, self.joint.axis)
        self.connect(self.lag.y, self.motor.tau)
        self.expose(self.joint.frame_a, "frame_a")


def test_forms_are_chosen_and_refused_by_name():
    """Reference: the documented choice. "auto" takes the recursive form where it can be
    built and the forward form where not (a component state: the motor's first-order lag);
    "recursive" there is a ModelError saying why; an unknown form names the choices."""
    _, system = _robot(UR5)
    assert dd.stage_jacobian(system, "auto").n_instructions() == \
        dd.recursive_jacobian(system).n_instructions()
    with pytest.raises(jd.ModelError, match="derivatives must be one of"):
        dd.stage_jacobian(system, "reverse")
    lagged = jd.compile(jd.Model.on_world(World(), p=LaggedPendulum()))
    assert dd.stage_jacobian(lagged, "auto").n_instructions() == \
        dd.forward_jacobian(lagged).n_instructions()
    with pytest.raises(jd.ModelError, match="no component states.*derivatives='forward'"):
        dd.stage_jacobian(lagged, "recursive")


TALOS = "talos_data/robots/talos_left_arm.urdf"


def _talos_reach(system, N: int):
    """The Talos arm reach of benchmarks/robot_ocp.py, shortened to N intervals of 0.01 s:
    the gripper to a target, state and torque regularization, from crocoddyl's q0."""
    ocp = jd.TrajectoryProblem(system, N * 0.01, intervals=N)
    nq = len(system.y_names)
    x0 = np.r_[[0.173046, 1.0, -0.52366, 0.0, 0.0, 0.1][:nq], np.zeros(system.nx - nq)]
    ocp.initial(dict(zip(system.x_names, x0)))
    frame = "r.gripper_left_joint.frame_b"
    xs = lambda v: ca.vertcat(*[v[n] for n in system.x_names])   # noqa: E731
    ocp.least_squares(lambda v: np.sqrt(0.5) * (v.frame(frame) - ca.DM([0.0, 0.0, 0.4])))
    ocp.least_squares(lambda v: np.sqrt(0.5e-4) * (xs(v) - x0))
    ocp.least_squares(lambda v: np.sqrt(0.5e-4) * ca.vertcat(*[v[n] for n in system.u_names]))
    ocp.least_squares(lambda v: np.sqrt(0.5) * (v.frame(frame) - ca.DM([0.0, 0.0, 0.4])),
                      terminal=True)
    return ocp


def test_fddp_on_the_talos_arm_reaches_the_same_cost_with_either_derivatives():
    """Reference: two formulations of one model — FDDP on the Talos arm (6 joints, 0.1 kg·m²
    armatures, N = 20) with the recursive derivatives and with forward-mode AD of f reaches
    the same cost to 1e-6 relative in the same number of iterations, and the plans agree."""
    _, system = _robot(TALOS, 0.1, locked={"gripper_left_joint": -0.005})
    ocp = _talos_reach(system, 20)
    rk4 = jd.MultipleShooting(jd.Integrator.RK4, steps=1)
    sols = [ocp.build(rk4, solver="fddp", tol=1e-9, derivatives=form).solve()
            for form in ("recursive", "forward")]
    assert sols[0].cost == pytest.approx(sols[1].cost, rel=1e-6)
    assert sols[0].stats["iterations"] == sols[1].stats["iterations"]
    assert np.abs(sols[0].U - sols[1].U).max() <= 1e-5 * np.abs(sols[1].U).max()


def test_knot_function_derivatives_equal_either_way(rng):
    """Reference: two methods — the RK4 knot function of the NLP (solver/optimal/knots.py)
    differentiated by CasADi through f with the recursive algorithms' Jacobian
    (custom_jacobian) and through f's own expression: K, its Jacobian, its gradient (one
    reverse sweep) and the Jacobian of that (the exact Hessian's) agree to 1e-9 relative at
    a random point, on the UR5 with 0.1 kg·m² armatures."""
    from jourdain.solver.optimal import knots
    _, system = _robot(UR5, 0.1)
    ocp = jd.TrajectoryProblem(system, 0.2, intervals=10)
    ocp.initial(dict(zip(system.x_names, np.zeros(system.nx))))
    ocp.least_squares(lambda v: ca.vertcat(*[v[n] for n in system.x_names]) - 0.5)
    ocp.least_squares(lambda v: 0.01 * ca.vertcat(*[v[n] for n in system.u_names]))
    fns = ocp.functions()
    K = {form: knots.knot_function(ocp, fns, 2, form) for form in ("recursive", "forward")}
    x, u = _state(system, rng)
    args = [x, u, np.zeros(fns.L.nnz_in(3)), 0.2, 3.0]
    for derive in (lambda k: k, lambda k: k.jacobian(), lambda k: k.reverse(1),
                   lambda k: k.reverse(1).jacobian()):
        fast, ref = derive(K["recursive"]), derive(K["forward"])
        ins = args + [rng.uniform(-1, 1, ref.sparsity_in(i).shape)
                      for i in range(len(args), ref.n_in())]
        for got, want in zip(fast.call(ins), ref.call(ins)):
            got, want = (np.array(ca.densify(b), dtype=float) for b in (got, want))
            assert np.abs(got - want).max(initial=0.0) <= \
                1e-9 * max(1.0, np.abs(want).max(initial=0.0))
