"""The package's shape (docs/architecture.md): imports point one way, no module imports in a
circle, every documented public name imports, and no module grows past ~500 lines.

Reference: the import graph read with the standard library's ``ast`` from the source files
(imports at any depth, also inside functions; only ``if TYPE_CHECKING:`` blocks are skipped,
since they never run).
"""
import ast
import importlib
import re
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"jourdain": "jourdain", "jourdain.blocks": "blocks", "jourdain.solver": "solver",
            "jourdain.library": "library"}
# wings of the solver and their rank: a module may import modules of a lower rank or of its own
# wing, never a higher or a sibling wing of the same rank
# (hybrid, visual, exchange and studies are reserved for the families that come next)
SOLVER_RANK = {"model": 0, "equations": 1, "constraints": 2, "collision": 2, "hybrid": 3, "visual": 3,
               "simulation": 4, "control": 5, "optimal": 6, "exchange": 7, "studies": 7,
               "system": 8, "compile": 9, "__init__": 10}
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package,) + parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(name: str, path: Path, modules: dict) -> set[str]:
    """Modules of the package that ``name`` imports (relative imports resolved)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()

    def visit(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                out.update(a.name for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module
                out.add(target)
                out.update(f"{target}.{a.name}" for a in child.names)  # submodules by name
            visit(child)
    visit(ast.parse(path.read_text()))
    resolved = set()
    for target in out:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.add(target)
    return resolved


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    modules = _modules()
    g = nx.DiGraph()
    for name, path in modules.items():
        g.add_node(name)
        for target in _imports(name, path, modules):
            # a package's __init__ importing its own submodules is how it re-exports them
            if not target.startswith(name + ".") or not path.name == "__init__.py":
                g.add_edge(name, target)
    return g


def test_no_import_cycles(graph):
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, "import cycles: " + "; ".join(" → ".join(c + c[:1]) for c in cycles[:5])


def _rank(module: str) -> tuple[str, int] | None:
    parts = module.split(".")
    if parts[:2] != ["jourdain", "solver"]:
        return None
    wing = parts[2] if len(parts) > 2 else "__init__"
    return wing, SOLVER_RANK[wing]


def test_solver_wings_import_downwards_only(graph):
    bad = []
    for source, target in graph.edges:
        s, t = _rank(source), _rank(target)
        if s and t and s[0] != t[0] and t[1] >= s[1]:
            bad.append(f"{source} → {target}")
    assert not bad, "imports against the wing order " + str(SOLVER_RANK) + ": " + ", ".join(bad)


def test_folders_import_in_one_direction(graph):
    """blocks ← solver ← facade; library builds on blocks only (DESIGN.md §2)."""
    allowed = {"jourdain.blocks": {"jourdain.blocks"},
               "jourdain.solver": {"jourdain.blocks", "jourdain.solver"},
               "jourdain.library": {"jourdain.blocks", "jourdain.library"}}
    bad = []
    for source, target in graph.edges:
        top = ".".join(source.split(".")[:2])
        if top in allowed and ".".join(target.split(".")[:2]) not in allowed[top]:
            bad.append(f"{source} → {target}")
    assert not bad, ", ".join(bad)


def test_modules_stay_small():
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_every_documented_name_imports():
    """Every `jd.X`, every name imported from jourdain.* and every dotted jourdain.* module
    path in the README and the docs resolves."""
    texts = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    missing = []
    import jourdain as jd
    for path in texts:
        text = path.read_text()
        for name in set(re.findall(r"\bjd\.([A-Za-z_]\w*)", text)):
            if not hasattr(jd, name):
                missing.append(f"{path.name}: jd.{name}")
        for module, grouped, line in re.findall(
                r"from (jourdain[\w.]*) import (?:\(([\w,\s]+)\)|([\w, ]+))", text):
            names = grouped or line
            mod = importlib.import_module(module)
            for n in (n.strip() for n in names.replace("\n", " ").split(",")):
                if n and not hasattr(mod, n):
                    missing.append(f"{path.name}: {module}.{n}")
        for dotted in set(re.findall(r"`(jourdain(?:\.\w+)+)`", text)):
            try:
                importlib.import_module(dotted)
            except ImportError:
                parent, _, attr = dotted.rpartition(".")
                try:
                    ok = hasattr(importlib.import_module(parent), attr)
                except ImportError:
                    ok = False
                if not ok:
                    missing.append(f"{path.name}: {dotted}")
    assert not missing, "documented names that do not import: " + ", ".join(sorted(missing))


def test_facade_exports_exist():
    import jourdain as jd
    assert all(hasattr(jd, name) for name in jd.__all__)
