"""The C source of CasADi functions as jourdain compiles it: CasADi's CodeGenerator output
with its helpers made static inline (the comment on TUNING says why and what it gained).
Every library jourdain builds (:mod:`.codegen`, the stepping mode's staged step, the
trajectory optimizer's NLP) is written here; an FMU's sources are CasADi's as they are.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import casadi as ca

# CasADi writes its helpers (casadi_sq, casadi_fabs, casadi_fmax, casadi_copy, ...) as global
# functions. In a shared library (-fPIC) gcc keeps every call to a global function a call
# through the PLT, since another object could interpose it, and inlines none; fmax and fmin
# are calls into libm. Every casadi_sq of a step was a call. The helpers are made static
# inline, and fmax/fmin the comparisons below (fmax's C99 semantics: a NaN argument gives
# the other one; both NaN give NaN): the cheetah's compiled step ran 12 % faster
# (docs/hybrid.md, Performance). TUNING is part of every library's cache key
# (codegen.library_key).
TUNING = 1
_PRELUDE = """/* jourdain (csource.write_source): fmax/fmin inline, without a call into libm */
#include <math.h>
static inline double jd_fmax(double x, double y)
{ double m = x > y ? x : y; return y != y ? x : m; }
static inline double jd_fmin(double x, double y)
{ double m = x < y ? x : y; return y != y ? x : m; }
#define fmax jd_fmax
#define fmin jd_fmin
"""
_HELPER = re.compile(r"^((?:casadi_real|casadi_int|void) \**casadi_\w+\()", re.MULTILINE)


def write_source(functions: list, tmp: Path, name: str) -> Path:
    """``tmp/name``: the C source of ``functions`` (CasADi's CodeGenerator) with its helpers
    static inline and fmax/fmin without calls (TUNING's comment)."""
    gen = ca.CodeGenerator(name, {"with_header": False})
    for fn in functions:
        gen.add(fn)
    gen.generate(str(tmp) + os.sep)
    path = Path(tmp) / name
    text = path.read_text()
    # the helpers come first, before the functions' own code (static) and entry points
    end = min((i for i in (text.find("\nstatic "), text.find("\nCASADI_SYMBOL_EXPORT"))
               if i >= 0), default=len(text))
    path.write_text(_PRELUDE + _HELPER.sub(r"static inline \1", text[:end]) + text[end:])
    return path
