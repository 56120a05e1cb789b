"""Signatures of methods that delegate to free functions (STYLE: free functions as the
implementation, methods as one-line delegations): ``help(system.simulate)``, notebooks and
IDEs that ask the running object (IPython/Jedi) show the implementation's real keyword
arguments and documentation instead of ``**options``."""
from __future__ import annotations

import inspect

_KW, _VAR_KW = inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD


def delegates_to(implementation, *more):
    """Decorate a method ``m(self, ...)`` that calls ``implementation(self, ...)``: the method
    gets the implementation's parameters after its first one, then the keyword-only
    parameters of ``more`` (functions the options are passed on to, e.g. the controller
    loop's ``controller=`` and ``period=``) that it does not already have, and its docstring
    followed by the implementation's."""
    def decorate(method):
        own = inspect.signature(implementation)
        params = list(own.parameters.values())[1:]
        var_kw = [p for p in params if p.kind is _VAR_KW]
        params = [p for p in params if p.kind is not _VAR_KW]
        names = {p.name for p in params}
        for function in more:
            for p in list(inspect.signature(function).parameters.values())[1:]:
                if p.name not in names and p.kind not in (_VAR_KW, inspect.Parameter.VAR_POSITIONAL) \
                        and p.default is not inspect.Parameter.empty:
                    params.append(p.replace(kind=_KW))
                    names.add(p.name)
        keyword_only = [p for p in params if p.kind is _KW]
        positional = [p for p in params if p.kind is not _KW]
        this = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        method.__signature__ = own.replace(parameters=[this, *positional, *keyword_only,
                                                       *var_kw])
        method.__doc__ = (inspect.cleandoc(method.__doc__ or "") + "\n\n"
                          + inspect.cleandoc(implementation.__doc__ or "")).strip()
        return method
    return decorate
