"""The Jacobian ∂f/∂(t, x, u, p) that BDF's Newton iterations use, chosen by measurement.

Three forms, each a casadi.Function with CasADi's Jacobian signature
``(t, x, u, p, out_xdot) -> (jac_xdot_t, jac_xdot_x, jac_xdot_u, jac_xdot_p)``:

* ``EXPANDED``: CasADi's own Jacobian of f (SX: the expanded expression graph; MX: its
  algorithmic derivative). Cheap to evaluate while the expansion stays small; on long chains
  it grows as O(n²) instructions and takes seconds to build.
* ``ANALYTIC``: ż = M⁻¹·(q − k) differentiated through the inverse dynamics
  ID(y, z, a) = M·a + k − q (one RNEA pass, recursive back end): ∂ż/∂ξ = −M⁻¹·∂ID/∂ξ at
  a = ż (J. Carpentier, N. Mansard, "Analytical derivatives of rigid body dynamics
  algorithms", RSS 2018). ∂ID/∂ξ is the expanded Jacobian of RNEA (about half the size of
  the ABA's), M comes from the CRBA with its structural zeros (branch-induced sparsity of a
  tree), and M⁻¹ is applied by a sparse LDLᵀ factorization at run time.
* ``FORWARD``: columns from forward derivatives of f, one per input entry (code of the size
  of f, cost n times f): the fallback when neither of the others can be built.

:func:`choose` builds the forms whose construction is affordable (by operation count) and
times each on CasADi's virtual machine at a state near the reference (a few calls); the
fastest wins. A compiled System (:mod:`.codegen`) compiles the winner only when its
instruction count stays below ``COMPILE_OPS`` (gcc time and memory; and compiled straight-line
code beyond that size is no faster than the virtual machine) and keeps it only when it times
faster than the virtual machine's form beside it, so the virtual machine's form is never
replaced by a slower compiled one; see :func:`jacobian_function`.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from enum import Enum

import casadi as ca
import numpy as np

from . import codegen
from .numeric import buffered

EXPAND_BUDGET = 4_000_000  # instructions of f × directions: an expansion worth trying
EXPAND_LIMIT = 3_000_000   # instructions of an expanded Jacobian worth keeping
# instructions of a Jacobian worth compiling (benchmarks/build.py, jacobian.py): at 24k and 51k
# the C form ran 1.8× and 8× faster than the VM after 2–5 s of gcc; at 143k (50-link chain)
# 17 s of gcc and 770 MB gave code slower than the VM (398 against 311 µs)
COMPILE_OPS = 100_000
TIMING_BUDGET = 0.02       # [s] of timing per candidate form
UNKNOWN_OPS = 10**9        # the size given to rootfinders and externals (not compiled)


class JacobianForm(Enum):
    """How ∂f/∂x is evaluated (module docstring)."""

    EXPANDED = "expanded"
    ANALYTIC = "analytic"
    FORWARD = "forward"


@dataclass
class JacobianChoice:
    """The measured forms and the winner: its function (virtual machine), the time of one
    call of each form [µs] and their instruction counts (SX operations)."""

    form: JacobianForm
    function: ca.Function
    times_us: dict = field(default_factory=dict)
    instructions: dict = field(default_factory=dict)
    compiled: ca.Function | None = None   # the compiled form, once a library holds it
    compiled_us: float | None = None      # its time [µs], measured beside the VM's
    vm_kept: bool = False                 # compiled, timed slower: the VM's form stays

    def __str__(self) -> str:
        rows = ", ".join(f"{k.value} {self.times_us[k]:.3g} µs ({self.instructions[k]} ops)"
                         for k in self.times_us)
        where = "compiled C" if self.compiled is not None else "CasADi's virtual machine"
        if self.vm_kept:
            where += f" (its C took {self.compiled_us:.3g} µs: slower)"
        return f"Jacobian: {self.form.value}, {where} (measured on the latter: {rows})"


def choose(system) -> JacobianChoice:
    """The fastest form on the virtual machine (module docstring), measured once per System
    (kept in ``system.jacobian_choice``)."""
    choice = getattr(system, "jacobian_choice", None)
    if choice is not None:
        return choice
    f = system.functions.get("f", system.f)
    forms = {}
    expanded = _expanded(f)
    if expanded is not None:
        forms[JacobianForm.EXPANDED] = expanded
    if "inverse_dynamics" in system.functions:
        forms[JacobianForm.ANALYTIC] = analytic(system)
    if not forms:
        forms[JacobianForm.FORWARD] = forward(f)
    args = _test_point(system, f)
    times = {form: _time_us(fn, args) for form, fn in forms.items()}
    best = min(times, key=times.get)
    choice = JacobianChoice(best, forms[best], times,
                            {form: instructions(fn) for form, fn in forms.items()})
    system.jacobian_choice = choice
    return choice


def jacobian_function(system) -> ca.Function:
    """The Jacobian CVODES should call: the compiled one when the System's library holds
    (or can be given) it, else the chosen virtual-machine form."""
    choice = choose(system)
    if choice.compiled is None and not choice.vm_kept and \
            getattr(system, "library", None) is not None:
        attach_jacobian(system, choice)
        _keep_faster(system, choice)
    return choice.compiled if choice.compiled is not None else choice.function


def attach_jacobian(system, choice: JacobianChoice) -> None:
    """Set ``choice.compiled``: the jac_f of f's own library (small f), else the chosen form
    compiled into a library of its own (cached and verified like f's, :mod:`.codegen`) when
    it has at most COMPILE_OPS instructions; otherwise the virtual machine keeps it."""
    own = codegen.compiled_jacobian(system.f)
    if own is not None:
        choice.compiled = own
        return
    if instructions(choice.function) > COMPILE_OPS:
        return
    options = getattr(system, "codegen_options", None) or codegen.CodegenOptions()
    jac, f = choice.function, system.functions["f"]
    points = codegen._test_points(f, codegen._reference_state(system, f), system.p_default, 2)
    for path in codegen.cached_libraries(jac, options):
        choice.compiled = _load_checked(jac, path, points)
        if choice.compiled is not None:
            return
        codegen._discard(path)
    path = codegen.build_library(jac, options, functions=[jac])
    if path is not None:
        choice.compiled = _load_checked(jac, path, points)


def _keep_faster(system, choice: JacobianChoice) -> None:
    """Drop the compiled form when it is slower than the virtual machine's (straight-line C
    of a large Jacobian can be: the VM's form is never replaced by a slower one). Both are
    timed alternately at the same point, the better of two rounds each."""
    if choice.compiled is None:
        return
    args = _test_point(system, system.functions["f"])
    vm, c = [], []
    for _ in range(2):
        vm.append(_time_us(choice.function, args))
        c.append(_time_us(choice.compiled, args))
    choice.compiled_us = min(c)
    if choice.compiled_us > min(vm):
        choice.compiled, choice.vm_kept = None, True


def _load_checked(jac: ca.Function, path, points: list) -> ca.Function | None:
    """The compiled jac_f at ``path`` if it loads and reproduces the virtual machine's at
    ``points`` (to codegen.VERIFY_RTOL of the largest entry), else None with a warning."""
    try:
        compiled = ca.external(jac.name(), str(path))
    except RuntimeError:
        return None
    worst = 0.0
    for args in points:
        try:
            ref = [np.array(ca.densify(b), dtype=float) for b in jac.call([*args, 0])]
            got = [np.array(ca.densify(b), dtype=float) for b in compiled.call([*args, 0])]
        except RuntimeError:    # the virtual machine fails here (a projection): skip
            continue
        scale = max((np.abs(b).max(initial=0.0) for b in ref), default=0.0)
        worst = max([worst] + [codegen._deviation(g.ravel(), r.ravel(), np.array([scale]))
                               for g, r in zip(got, ref)])
    if worst <= codegen.VERIFY_RTOL:
        return compiled
    codegen._warn(f"jourdain: the compiled Jacobian {path} deviates from the virtual "
                  f"machine's ({worst:.2g}); using the virtual machine")
    return None


def instructions(fn: ca.Function) -> int:
    """SX operations of ``fn``, counting inside the functions an MX graph calls."""
    if fn.is_a("SXFunction"):
        return fn.n_instructions()
    if not fn.is_a("MXFunction"):   # a rootfinder or an external: unknown, never compiled
        return UNKNOWN_OPS
    total = 0
    for k in range(fn.n_instructions()):
        if fn.instruction_id(k) == ca.OP_CALL:
            total += instructions(fn.instruction_MX(k).which_function())
        else:
            total += 1
    return total


def _expanded(f: ca.Function) -> ca.Function | None:
    """CasADi's Jacobian of f, when affordable (EXPAND_BUDGET, EXPAND_LIMIT)."""
    n_dir = sum(f.nnz_in(i) for i in range(f.n_in()))
    if f.n_out() != 1 or f.n_instructions() * n_dir > EXPAND_BUDGET:
        return None
    jac = f.jacobian()
    return jac if not jac.is_a("SXFunction") or jac.n_instructions() <= EXPAND_LIMIT else None


def analytic(system) -> ca.Function:
    """The ANALYTIC form: ∂ẏ/∂ξ of the kinematics and ∂ż/∂ξ = −M⁻¹·∂ID/∂ξ at a = ż
    (module docstring); needs ``inverse_dynamics`` (recursive back end, joint speeds)."""
    f, fns = system.functions["f"], system.functions
    ny, nx = len(system.y_names), system.nx
    t, x = ca.SX.sym("t"), ca.SX.sym("x", nx)
    u, p = ca.SX.sym("u", f.nnz_in(2)), ca.SX.sym("p", f.nnz_in(3))
    a = ca.SX.sym("a", nx - ny)
    y, z = x[:ny], x[ny:]
    xi = ca.vertcat(t, x, u, p)
    parts = ca.Function("jac_parts", [t, x, u, p, a],
                        [ca.sparsify(fns["M"](y, p)),
                         ca.jacobian(fns["inverse_dynamics"](t, y, z, a, u, p), xi),
                         ca.jacobian(fns["ydot"](y, z, p), xi)])
    args = [ca.MX.sym(f.name_in(i), f.sparsity_in(i)) for i in range(4)]
    out = ca.MX.sym("out_xdot", f.sparsity_out(0))
    zdot = f(*args)[ny:]   # recomputed: ż must be exact whatever CasADi passes as out_xdot
    M, B, K = parts(*args, zdot)
    # one factorization for the columns ID depends on; the others are structural zeros
    live = sorted(set(B.sparsity().get_col()))
    solved = -ca.solve(M, B[:, live], "ldl") if live else ca.MX(nx - ny, 0)
    columns = [ca.MX(nx - ny, 1)] * xi.numel()
    for k, j in enumerate(live):
        columns[j] = solved[:, k]
    J = ca.vertcat(K, ca.horzcat(*columns))
    return _blocks(f, args, out, J, project=True)


def forward(f: ca.Function) -> ca.Function:
    """The FORWARD form: column j of the Jacobian is f's forward derivative along the j-th
    unit seed, all columns by one mapped call (code of the size of f's derivative)."""
    args = [ca.MX.sym(f.name_in(i), f.sparsity_in(i)) for i in range(f.n_in())]
    out = ca.MX.sym("out_" + f.name_out(0), ca.Sparsity(f.size1_out(0), f.size2_out(0)))
    ends = list(itertools.accumulate(f.nnz_in(i) for i in range(f.n_in())))
    ranges = [slice(end - f.nnz_in(i), end) for i, end in enumerate(ends)]
    n_dir = ends[-1] if ends else 0
    seeds = ca.DM.eye(n_dir)
    cols = f.forward(1).map(n_dir, "serial")(*args, ca.MX(f.size1_out(0), f.size2_out(0)),
                                              *[seeds[r, :] for r in ranges])
    return _blocks(f, args, out, cols)


def _blocks(f: ca.Function, args: list, out, J, project: bool = False) -> ca.Function:
    """jac_f(args, out) -> the column blocks of J, one per input, named as CasADi does;
    ``project``: onto f's structural Jacobian pattern (a dense M⁻¹·B has zeros there)."""
    ends = list(itertools.accumulate(f.nnz_in(i) for i in range(f.n_in())))
    blocks = [J[:, end - f.nnz_in(i):end] for i, end in enumerate(ends)]
    if project:
        blocks = [ca.project(b, f.jac_sparsity(0, i)) for i, b in enumerate(blocks)]
    out_name = f.name_out(0)
    return ca.Function("jac_" + f.name(), [*args, out], blocks,
                       [*f.name_in(), "out_" + out_name],
                       [f"jac_{out_name}_{name}" for name in f.name_in()])


def _test_point(system, f: ca.Function) -> list[np.ndarray]:
    """(t, x, u, p, out) near the reference configuration, with nonzero speeds."""
    rng = np.random.default_rng(3)
    y = np.asarray(getattr(system, "y_ref", system.y_default), dtype=float)
    x = rng.uniform(-0.1, 0.1, system.nx)
    x[:y.size] += y
    args = [np.zeros(1), x, rng.uniform(-1, 1, f.nnz_in(2)), np.asarray(system.p_default)]
    try:
        out = np.array(f(*args), dtype=float).ravel()
    except RuntimeError:        # a projection that fails off the reference: use it
        args[1] = np.concatenate([y, np.zeros(system.nx - y.size)])
        out = np.array(f(*args), dtype=float).ravel()
    return [*args, out]


def _time_us(fn: ca.Function, args: list) -> float:
    """Median time of one call [µs]: CPU time of batches of about a millisecond (buffers, no
    conversions), within TIMING_BUDGET."""
    trigger = buffered(fn, args)
    start = time.process_time()
    trigger()
    batch = max(1, int(1e-3 / max(time.process_time() - start, 1e-7)))
    samples, spent = [], 0.0
    while len(samples) < 3 or (spent < TIMING_BUDGET and len(samples) < 9):
        start = time.process_time()
        for _ in range(batch):
            trigger()
        samples.append((time.process_time() - start) / batch)
        spent += samples[-1] * batch
    return float(np.median(samples)) * 1e6
