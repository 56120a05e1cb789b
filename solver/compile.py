"""The pipeline in one call (DESIGN.md §3): flatten → parameters → topology → kinematics →
signals (:func:`.model.mechanics.build_mechanics`) → [constraints: analysis, partition,
method] → speeds → equations → named functions → System or ConstrainedSystem.

This module is the top of the solver: it imports the wings and the System class, nothing
imports it but the package's ``__init__``.
"""
from __future__ import annotations

import casadi as ca

from jourdain.blocks.errors import ModelError

from .collision.build import add_contacts, declared
from .constraints.analysis import analyze, integrability_of
from .constraints.loop_dynamics import supported as loops_supported
from .constraints.methods import (
    ConstraintMethod,
    check_baumgarte,
    check_explicit_form,
    check_mass,
    constraint_functions,
    method_functions,
    one_dof_mass,
    partition_equations,
    speeds_for,
    state_expr,
    watch_function,
)
from .constraints.moves import mover
from .constraints.repartition import PartitionBank
from .equations.armature import supported
from .equations.backends import (
    AUTO_RECURSIVE_SPEEDS,
    Backend,
    Formulation,
    default_speed_ops,
    equations,
    recursive_inverse,
)
from .equations.driven import driven_dynamics, driven_speed_index
from .equations.functions import (
    check_mass_matrix,
    named_functions,
    names_of,
    quantity_function,
    structure_of,
)
from .equations.lagrange import lagrange_system, lagrange_zdot
from .equations.projection import jourdain
from .equations.recursive import build_links, recursive
from .hybrid import build_hybrid, refuse_massless, refuse_row_reads
from .model.checks import flag, keywords, option
from .model.mechanics import Mechanics, build_mechanics
from .model.speeds import choose_speeds, speed_matrix, speed_spec
from .simulation.discontinuities import time_sources
from .stepping.frames import frame_kinematics
from .system import ConstrainedSystem, System
from .visual.graph import component_graph
from .visual.scene import build_visual


@keywords
def compile(model, speeds: dict | None = None, parameters=(),
            formulation: Formulation = Formulation.JOURDAIN, constraints=None,
            baumgarte: tuple = (10.0, 10.0), backend: Backend = Backend.AUTO,
            codegen: bool = False) -> System:
    """Compile a model into a System.

    model : a jd.Model (or any Composite) holding one World.
    speeds : optional {name: expression} generalized speeds z = W(y)·ẏ, e.g.
        {"u1": "cube.edge.phi.der", "u2": "cube.edge.phi.der + cube.bearing.phi.der"}.
    parameters : names of parameters (or components) to keep symbolic, in p.
    formulation : Formulation.JOURDAIN (default) or Formulation.LAGRANGE.
    constraints : for closed loops and contacts, a jd.ConstraintMethod (default PARTITIONING;
        BAUMGARTE or DAE); see :mod:`jourdain.solver.constraints.methods`.
    baumgarte : (α, β) [1/s], the stabilization rates of the BAUMGARTE and DAE methods.
    backend : Backend.AUTO (default: recursive for tree systems with more than
        AUTO_RECURSIVE_SPEEDS speeds, user-chosen or not, else projection), PROJECTION or
        RECURSIVE.
    codegen : generate, compile (cached on disk) and load C code for f and its Jacobian
        (see :mod:`jourdain.solver.simulation.codegen`).
    """
    _check_options(formulation, backend, constraints, baumgarte, codegen)
    if declared(model):          # collision shapes: their contacts join the model (once)
        add_contacts(model)
    mech = build_mechanics(model, parameters)
    speeds = speed_spec(speeds, mech.kin, mech.signal_names())
    if mech.constrained:
        system = compile_constrained(mech, speeds, formulation,
                                     constraints or ConstraintMethod.PARTITIONING, baumgarte,
                                     backend)
        return system.codegen() if codegen else system
    sp = choose_speeds(mech.kin, speeds)
    eom, used = equations(mech, sp, formulation, backend)
    zdot = eom.zdot if formulation is Formulation.JOURDAIN else lagrange_zdot(mech, sp)
    drive = None
    if mech.driven:   # prescribed speeds: only the free ones keep an equation of motion
        M, rhs = (eom.M, eom.q - eom.k) if formulation is Formulation.JOURDAIN \
            else lagrange_system(mech)
        zdot, drive = driven_dynamics(mech, sp, M, rhs)
    functions = named_functions(mech, sp, eom, zdot, drive)
    if not sp.identity:   # user speeds: W(y) is checked along simulations
        functions["W"] = speed_matrix(mech.kin, sp)
    # coordinates without inertia, whose mass comes through a LossyGear's teeth: the hybrid
    # solve takes q − k and never inverts M alone (solver/hybrid/massless.py)
    hybrid = build_hybrid(mech, sp, eom.M, zdot, functions,
                          rhs=None if drive is not None else eom.q - eom.k)
    p_default = mech.params.defaults
    check_mass_matrix(functions.get("M_rows", functions["M"]), mech, sp, p_default,
                      free_speeds(mech, sp))
    structure = structure_of(mech, sp)
    if not sp.identity:  # user speeds (e.g. the cube's absolute wheel speed): show what the speed choice does to the equations' size
        structure.default_speed_ops = default_speed_ops(mech, used)
    system = System(formulation, names_of(mech, sp), functions, p_default, structure)
    system.backend = used
    system.hybrid = hybrid
    system.time_sources = time_sources(mech.flat.components)
    system._lazy.update(quantities=(lambda: quantity_function(mech, sp, system.h, drive), True),
                        mover=(lambda: mover(mech.kin, ca.SX(0, 1), mech.params.p), False),
                        frames=(lambda: frame_kinematics(mech, sp), False),
                        recursive_inverse=(lambda: None if hybrid is not None else
                                           recursive_inverse(mech, sp, drive, functions),
                                           False))
    attach_visual(system, mech, system.y_default)
    if codegen:
        system.codegen()
    return system


def free_speeds(mech: Mechanics, sp) -> list[int]:
    """Indices in z of the speeds that keep an equation of motion (all but the driven)."""
    driven = {driven_speed_index(mech, sp, d.speed) for d in mech.driven}
    return [k for k in range(sp.z.numel()) if k not in driven]


def _check_options(formulation, backend, constraints, baumgarte, codegen) -> None:
    """compile's options, checked before any work (also those a tree model does not use)."""
    option(formulation, Formulation, "compile: formulation")
    option(backend, Backend, "compile: backend")
    if constraints is not None:
        option(constraints, ConstraintMethod, "compile: constraints")
    check_baumgarte(baumgarte)
    flag(codegen, "compile: codegen")


def compile_constrained(mech: Mechanics, speeds: dict | None, formulation: Formulation,
                        method: ConstraintMethod, baumgarte: tuple,
                        backend: Backend = Backend.AUTO) -> ConstrainedSystem:
    """Stages 4–8 for a model with cut joints or contacts."""
    if formulation is not Formulation.JOURDAIN:
        raise ModelError("closed loops and contacts need Formulation.JOURDAIN (the projection "
                         "onto the constrained speeds); Lagrange's equations here are for trees")
    if not isinstance(method, ConstraintMethod):
        raise ModelError(f"constraints must be a jd.ConstraintMethod, got {method!r}")
    check_baumgarte(baumgarte)
    refuse_massless(mech, "in a model with closed loops")
    eqs, part, A, G, mv, user_names = analyze(mech, speeds)
    if method is not ConstraintMethod.PARTITIONING and user_names:
        raise ModelError("speeds: user-chosen speeds apply to ConstraintMethod.PARTITIONING; the "
                         "Baumgarte and DAE methods integrate all joint speeds")
    if mech.driven and method is not ConstraintMethod.PARTITIONING:
        raise ModelError("kinematic drivers in closed loops need ConstraintMethod.PARTITIONING "
                         "(the driven coordinate is kept independent)")
    used = constrained_backend(mech, backend, method)
    wdot = None
    if method is ConstraintMethod.PARTITIONING:
        sp, eom, zdot, drive, wdot = partition_equations(
            mech, eqs, part, G, user_names, used is Backend.RECURSIVE)
    else:   # the tree's equations in all joint speeds; the method adds Aᵀ·λ
        sp = speeds_for(mech, method, G, part, user_names)
        eom = recursive(mech, sp) if used is Backend.RECURSIVE else jourdain(mech, sp)
        zdot, drive = eom.zdot, None
    functions = named_functions(mech, sp, eom, zdot, drive, wdot)
    refuse_row_reads(mech, functions)
    proj_y = method_functions(functions, mech, sp, eom, eqs, part, A, method, baumgarte,
                              zdot, drive, wdot)
    functions.update(constraint_functions(mech, eqs, A, G, state_expr(mech, sp), part))
    if method is ConstraintMethod.PARTITIONING:
        functions["watch"] = watch_function(functions, mech.kin.y.numel())
    functions.update(one_dof_mass(mech, sp, eom, proj_y, part))
    hybrid = build_hybrid(mech, sp, eom.M, zdot, functions,
                          rows_allowed=method is ConstraintMethod.PARTITIONING)
    check_mass(functions["M"], part.y_ref, mech, sp, free_speeds(mech, sp))
    check_explicit_form(functions, part.y_ref, mech.params.defaults)
    info = {"y_ref": part.y_ref, "partition": part, "owners": eqs.c_owner + eqs.b_owner,
            "integrability": lambda: integrability_of(mech, eqs, part, A, G, mv),
            "speed_names": [r.name for r in mech.kin.rates], "mover": mv,
            "partitions": PartitionBank(mech, eqs, part, part.independent_speeds[:len(user_names)],
                                        user_names, functions, names_of(mech, sp),
                                        used is Backend.RECURSIVE)
            if method is ConstraintMethod.PARTITIONING else None}
    base = (formulation, names_of(mech, sp), functions, mech.params.defaults,
            structure_of(mech, sp))
    system = ConstrainedSystem(base, method, info)
    system.hybrid = hybrid
    system.time_sources = time_sources(mech.flat.components)
    system.backend = used
    system._lazy["quantities"] = (lambda: quantity_function(mech, sp, system.h, drive), True)
    attach_visual(system, mech, part.y_ref)
    return system


def constrained_backend(mech: Mechanics, backend: Backend, method: ConstraintMethod) -> Backend:
    """The back end of a constrained model: the recursive algorithms where they carry the
    model (partitioning: over loop nodes, :mod:`.constraints.loop_dynamics`; the multiplier
    methods: the tree's own, beyond AUTO_RECURSIVE_SPEEDS joint speeds as for trees), else
    the projection; Backend.RECURSIVE where they cannot is a ModelError saying why."""
    if method is ConstraintMethod.PARTITIONING:
        fits = loops_supported(mech)
    else:
        fits = mech.tree_only and supported(mech, [link.rows for link in build_links(mech)])
    if backend is Backend.RECURSIVE and not fits:
        raise ModelError("Backend.RECURSIVE cannot carry this model: it needs every mass on a "
                         "link of the spanning tree (no point masses riding on line forces, no "
                         "massless junctions) and 1-D bodies moved at constant ratios"
                         + ("" if method is ConstraintMethod.PARTITIONING else
                            " by one link") + "; use backend=Backend.PROJECTION")
    if backend is Backend.PROJECTION or not fits:
        return Backend.PROJECTION
    if backend is Backend.AUTO and method is not ConstraintMethod.PARTITIONING and \
            mech.kin.w.numel() <= AUTO_RECURSIVE_SPEEDS:
        return Backend.PROJECTION
    return Backend.RECURSIVE


def attach_visual(system: System, mech: Mechanics, y_nominal) -> None:
    """The shapes of the model and ``poses(x, p)`` (:mod:`.visual.scene`), and the component
    graph that ``system.draw`` pictures (:mod:`.visual.graph`)."""
    system.visual, poses = build_visual(mech, system.nx, y_nominal)
    system.functions["poses"] = system.poses = poses
    system.graph = component_graph(mech)
