"""Controllers in the loop: input laws u = law(t, x, p) folded into a System's equations.

``fold`` returns a copy of a System in which some inputs are no longer inputs but a law of
the time, the state and the parameters: every function that takes u (f, q, h, dissipation,
and the DAE method's dae and multipliers) is rebuilt with the remaining inputs only, and the
driven inputs become outputs of the same name, so a Result still shows them. The copy keeps
the plant's names of coordinates, speeds, parameters and outputs; it simulates, linearizes,
optimizes, generates code and pickles like any System.

Two kinds of law enter (:func:`resolve`):

* **compiled**: any object with a ``law(system)`` method returning (CasADi Function
  (t, x, p) -> u, names of the driven inputs), e.g. a :class:`~jourdain.Feedback` from
  ``jd.lqr`` or a tracking controller; the law becomes part of the expression graph (SX when
  the model is SX), so CVODES never calls Python;
* **a Python callable** ``u(t, x)`` or ``u(t, x, v)``: called from inside the integrator
  through a CasADi ``Callback`` at every right-hand-side evaluation, so CVODES's error
  control sees the exact law and nothing is lost to sampling (the Jacobian that BDF needs
  is completed by finite differences of the callable). ``x`` is the state (numpy, in
  ``system.x_names`` order); ``v`` a read-only view by name of the states and of the outputs
  that do not depend on the inputs (sensors). It returns one value per input (all inputs,
  ``system.u_names`` order), or a dict {input name: value} for the inputs it drives.
"""
from __future__ import annotations

import copy
import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field

import casadi as ca
import numpy as np

from jourdain.blocks.errors import ModelError

from ..constraints.repartition import PartitionModel
from ..model.checks import unknown
from ..model.signals import SignalInfo
from .numeric import NumericFunction


@dataclass
class Law:
    """A resolved controller: ``function`` (t, x, p) -> u of the ``names`` it drives;
    ``numeric(t, x, p)`` evaluates it from Python (the sampled mode); ``callback`` holds the
    CasADi Callback of a Python callable (kept alive with the folded System)."""

    function: ca.Function
    names: list[str]
    numeric: object
    callback: object = field(default=None, repr=False)


# ---- folding a law into a System ---------------------------------------------------------
def fold(system, law: ca.Function, driven: list[str], keep_alive=None):
    """A copy of ``system`` with the inputs ``driven`` replaced by ``law(t, x, p)`` (module
    docstring). ``keep_alive``: an object (a Callback) the copy must hold."""
    keep = [n for n in system.u_names if n not in driven]
    functions = {}
    for key, fn in system.functions.items():
        functions[key] = _folded(fn, law, system, driven, keep) if "u" in fn.name_in() else fn
    new = copy.copy(system)
    new.functions = functions
    for key, fn in functions.items():
        # the attributes that are the functions (f, h, ...); not ``hybrid``, the HybridInfo
        # beside the function of the same name (a controller on a hybrid model broke there)
        if isinstance(system.__dict__.get(key, fn), ca.Function):
            setattr(new, key, fn)
    new.library = None          # a plant's compiled f is not the folded f: codegen() anew
    new.u_names = keep
    new.output_names = list(system.output_names) + list(driven)
    new.inputs = _remaining_signals(system.inputs, driven)
    new.outputs = list(system.outputs) + [SignalInfo(n, 1) for n in driven]
    new.plant = getattr(system, "plant", system)
    new.driven_inputs = list(getattr(system, "driven_inputs", [])) + list(driven)
    new.keep_alive = keep_alive
    if getattr(system, "partitions", None) is not None:   # partitioning switches partitions
        new.partitions = FoldedBank(system.partitions, law, driven, system)
    return new


class FoldedBank:
    """The partitions of a closed loop's constrained plant (``system.partitions``, see
    :mod:`jourdain.solver.constraints.repartition`) with the law folded into each: another
    partition's speeds are other joint speeds, so its state is mapped to the System's
    (y, w[independent speeds of the System] = (G·z)[…], s) before the law sees it."""

    def __init__(self, bank, law: ca.Function, driven: list[str], system):
        self._bank, self._law, self._driven = bank, law, list(driven)
        self._system_speeds = list(system.partition.independent_speeds)
        self._keep = [n for n in bank.initial.u_names if n not in driven]
        self.initial = self._fold(bank.initial, None)
        self._models = {id(bank.initial): self.initial}

    def __getattr__(self, name):
        if name.startswith("__") or name == "_bank":
            raise AttributeError(name)
        return getattr(self._bank, name)

    def model(self, part):
        """The partition's functions with the law folded in (built on first use)."""
        base = self._bank.model(part)
        if id(base) not in self._models:
            self._models[id(base)] = self._fold(base, self._state_map(base))
        return self._models[id(base)]

    def _state_map(self, model) -> ca.Function:
        """x_model -> the System's x: (y, (G(y)·z)[the System's independent speeds], s)."""
        ny, nz, ns = len(model.y_names), len(model.z_names), len(model.s_names)
        x, p = ca.SX.sym("x", ny + nz + ns), ca.SX.sym("p", model.G.nnz_in(1))
        w = ca.mtimes(model.G(x[:ny], p), x[ny:ny + nz])
        return ca.Function("to_system", [x, p],
                           [ca.vertcat(x[:ny], w[self._system_speeds], x[ny + nz:])])

    def _fold(self, model, to_system):
        functions = {k: _folded(fn, self._law, model, self._driven, self._keep, to_system)
                     if "u" in fn.name_in() else fn for k, fn in model.functions.items()}
        names = {"y": model.y_names, "z": model.z_names, "s": model.s_names,
                 "u": self._keep, "out": list(model.output_names) + self._driven}
        return PartitionModel(model.partition, functions, names)


def _remaining_signals(signals: list, driven: list[str]) -> list:
    """The input signals with the driven entries removed (a vector signal driven in part
    leaves its free entries as signals of one entry)."""
    out = []
    for signal in signals:
        entries = signal.entry_names()
        free = [e for e in entries if e not in driven]
        if len(free) == len(entries):
            out.append(signal)
        else:
            out += [SignalInfo(e, 1) for e in free]
    return out


def _folded(fn: ca.Function, law: ca.Function, system, driven: list[str],
            keep: list[str], to_system: ca.Function | None = None) -> ca.Function:
    """``fn`` with its input u replaced by (law outputs, remaining inputs) in the order of
    system.u_names; its h also outputs the driven inputs. ``to_system`` maps fn's state to
    the state the law reads (another partition's speeds), None if they are the same."""
    sym = ca.SX if fn.is_a("SXFunction") and law.is_a("SXFunction") and (
        to_system is None or to_system.is_a("SXFunction")) else ca.MX
    names = fn.name_in()
    args = {n: sym.sym(n, fn.sparsity_in(i)) for i, n in enumerate(names) if n != "u"}
    args["u"] = sym.sym("u", len(keep))
    x = args["x"] if "x" in args else ca.vertcat(*[args[n] for n in ("y", "z", "s")
                                                    if n in args])
    if to_system is not None:
        x = to_system(x, args["p"])
    u_law = law(args["t"], x, args["p"])
    parts = {n: u_law[i] for i, n in enumerate(driven)}
    parts.update({n: args["u"][i] for i, n in enumerate(keep)})
    u_full = ca.vertcat(*[parts[n] for n in system.u_names]) if system.u_names else sym(0, 1)
    outs = fn.call({**{n: args[n] for n in names if n != "u"}, "u": u_full})
    out_names = fn.name_out()
    results = [outs[n] for n in out_names]
    if fn.name() == "h":   # the driven inputs as outputs of the same name
        results[0] = ca.vertcat(results[0], u_law)
    return ca.Function(fn.name(), [args[n] for n in names], results, names, out_names)


# ---- resolving the controller argument ----------------------------------------------------
def resolve(system, controller, t0: float, x0: np.ndarray, p: np.ndarray) -> Law:
    """The Law of ``controller``: a compiled law (an object with ``law(system)``) or a Python
    callable (probed once at (t0, x0) for the inputs it drives); anything else is a
    ModelError."""
    if hasattr(controller, "law") and callable(controller.law):
        function, names = controller.law(system)
        return Law(function, list(names), NumericFunction(function))
    if callable(controller):
        return _python_law(system, controller, t0, x0, p)
    raise ModelError(f"simulate: controller must be a Python function u(t, x) (or u(t, x, v)) "
                     f"or a compiled law such as a jd.Feedback from jd.lqr, got "
                     f"{type(controller).__name__} {controller!r:.60}")


class _View(Mapping):
    """Read-only values by name of the states and of the input-free outputs at one instant."""

    def __init__(self, values: dict):
        self._values = values

    def __getitem__(self, name):
        try:
            return self._values[name]
        except KeyError:
            raise ModelError(unknown("controller view", name, list(self._values)) +
                             " (states and outputs that do not depend on the inputs)") \
                from None

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)


class PythonController:
    """Calls the user's function and turns its return value into the vector of the driven
    inputs, with errors that name the controller and the time."""

    def __init__(self, system, fn, p: np.ndarray):
        self.fn, self.system, self.p = fn, system, np.asarray(p, dtype=float)
        self.wants_view = _positional_count(fn) >= 3
        self.names: list[str] | None = None
        self.error: Exception | None = None
        if self.wants_view:
            self._outputs = _input_free_outputs(system)

    def view(self, t: float, x: np.ndarray) -> _View:
        values = dict(zip(self.system.x_names, x.tolist()))
        if self._outputs is not None:
            fn, names = self._outputs
            values.update(zip(names, fn(t, x, np.zeros(len(self.system.u_names)), self.p)))
        return _View(values)

    def __call__(self, t: float, x: np.ndarray) -> np.ndarray:
        args = (t, x.copy(), self.view(t, x)) if self.wants_view else (t, x.copy())
        try:
            value = self.fn(*args)
        except ModelError:
            raise
        except Exception as exc:
            raise ModelError(f"controller: calling {_name(self.fn)} at t = {t:.6g} s failed: "
                             f"{type(exc).__name__}: {exc}") from exc
        return self._vector(value, t)

    def _vector(self, value, t: float) -> np.ndarray:
        if isinstance(value, Mapping):
            names = list(value)
            if self.names is None:
                _check_names(self.system, names)
                self.names = names
            elif names != self.names:
                raise ModelError(f"controller: {_name(self.fn)} returned the inputs {names} at "
                                 f"t = {t:.6g} s, but {self.names} at the start; return the "
                                 "same inputs every time")
            raw = [value[n] for n in names]
        else:
            if self.names is None:
                self.names = list(self.system.u_names)
            raw = value
        try:
            vec = np.asarray(raw, dtype=float).ravel()
        except (TypeError, ValueError):
            vec = np.zeros(0) if self.names else np.zeros(1)   # wrong size either way
        if isinstance(raw, (str, bytes)) or vec.size != len(self.names):
            raise ModelError(f"controller: {_name(self.fn)} returned {value!r:.60} at t = "
                             f"{t:.6g} s; expected {len(self.names)} number(s) for "
                             f"{', '.join(self.names) or 'no inputs'} (or a dict by input name)")
        if not np.all(np.isfinite(vec)):
            bad = [n for n, v in zip(self.names, vec) if not np.isfinite(v)]
            raise ModelError(f"controller: {_name(self.fn)} returned a non-finite value for "
                             f"{', '.join(bad)} at t = {t:.6g} s")
        return vec


def _check_names(system, names: list[str]) -> None:
    for name in names:
        if name not in system.u_names:
            raise ModelError(unknown("controller: returned input", name, system.u_names))


class _Callback(ca.Callback):
    """CasADi Callback (t, x, p) -> u around a PythonController; records the first error
    (CasADi turns exceptions into a RuntimeError without the original)."""

    def __init__(self, controller: PythonController, nx: int, n_p: int):
        ca.Callback.__init__(self)
        self.controller, self.nx, self.n_p = controller, nx, n_p
        self.calls = 0
        self.construct("controller", {"enable_fd": True})

    def get_n_in(self):
        return 3

    def get_n_out(self):
        return 1

    def get_name_in(self, i):
        return ("t", "x", "p")[i]

    def get_name_out(self, i):
        return "u"

    def get_sparsity_in(self, i):
        return ca.Sparsity.dense((1, self.nx, self.n_p)[i])

    def get_sparsity_out(self, i):
        return ca.Sparsity.dense(len(self.controller.names))

    def eval(self, arg):
        self.calls += 1
        try:
            return [ca.DM(self.controller(float(arg[0]), np.array(arg[1], dtype=float).ravel()))]
        except Exception as exc:
            if self.controller.error is None:
                self.controller.error = exc
            raise


def _python_law(system, fn, t0: float, x0: np.ndarray, p: np.ndarray) -> Law:
    """A Law around the user's callable, probed at (t0, x0) to learn the inputs it drives."""
    controller = PythonController(system, fn, p)
    controller(t0, np.asarray(x0, dtype=float))
    callback = _Callback(controller, system.nx, len(p))
    t, x, pp = ca.MX.sym("t"), ca.MX.sym("x", system.nx), ca.MX.sym("p", len(p))
    function = ca.Function("controller", [t, x, pp], [callback(t, x, pp)], ["t", "x", "p"],
                           ["u"])
    return Law(function, controller.names, lambda t, x, _p: controller(t, x), callback)


def _positional_count(fn) -> int:
    """How many positional arguments ``fn`` takes (2 or 3 matter); unknown: 2."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 2
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return 2
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
               for p in params)


def _input_free_outputs(system):
    """(numeric h, names of its outputs that do not depend on u) or None if there are none."""
    if not system.output_names:
        return None
    h = system.h
    uses_u = set(h.sparsity_jac(2, 0).get_triplet()[0]) if system.u_names else set()
    rows = [i for i in range(len(system.output_names)) if i not in uses_u]
    if not rows:
        return None
    numeric = NumericFunction(h)
    names = [system.output_names[i] for i in rows]
    return (lambda t, x, u, p: np.atleast_1d(numeric(t, x, u, p))[rows]), names


def _name(fn) -> str:
    return getattr(fn, "__qualname__", None) or type(fn).__name__
