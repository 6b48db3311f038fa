"""The shape of the code: no import cycle among alpha_py's modules (module-level and function-level imports
alike, read with ast), every import pointing down or across the layer table below (never up), and no
Python file over 400 lines in alpha_py/, tests/, bench/ or spark_jobs/."""
import ast
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 400

# alpha_py's layers, bottom first. A module belongs to the entry naming the longest prefix of its dotted
# name (below alpha_py); it may import modules of its own layer and of the layers before it.
LAYERS = [
    ("errors", "ops", "text", "precision", "params"),         # exceptions; the op vocabulary; v1.2's text helpers; precisions; AlphaParam
    ("core",),                                                # Tensor, gradients, memory pools, step plans
    ("backend",),                                             # primitive tables (NumPy / CuPy + kernels)
    ("engine",),                                              # Engine and its factory
    ("nn",),                                                  # units, modules, the alpha.nn factory
    ("functional", "loss", "optim"),                          # alpha.F, losses, optimizers
    ("zoo", "data", "step", "step_results"),                  # nets and blocks, data sets, train_step
    ("stat",),                                                # checkpoints
    ("facade", ""),                                           # the alpha object; the alpha_py package
    ("validation", "plot", "trainer", "evaluator", "cli", "convert", "__main__", "bridge", "java", "distributed"),
]


def modules(root=os.path.join(REPO, "alpha_py")):
    """dotted name -> (path, is_package) of every module of the alpha_py package."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                parts = os.path.relpath(os.path.join(d, f), REPO)[:-3].split(os.sep)
                is_pkg = parts[-1] == "__init__"
                out[".".join(parts[:-1] if is_pkg else parts)] = (os.path.join(d, f), is_pkg)
    return out


def import_graph(mods):
    """module -> the alpha_py modules it imports anywhere in its body (`from pkg import sub` counts as
    an import of pkg.sub when sub is a module, else of pkg)."""
    graph = {}
    for name, (path, is_pkg) in mods.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        targets = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_pkg else name.split(".")[:-1]
                    base = base[:len(base) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module
                for a in node.names:
                    sub = f"{mod}.{a.name}"
                    if sub in mods:
                        targets.add(sub)
                    elif mod in mods:
                        targets.add(mod)
        targets.discard(name)
        graph[name] = targets
    return graph


def cycles(graph):
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def layer_of(module):
    rel = module[len("alpha_py."):] if module.startswith("alpha_py.") else ""
    best = None
    for i, entries in enumerate(LAYERS):
        for e in entries:
            if (rel == e or (e and rel.startswith(e + "."))) and (best is None or len(e) > len(best[1])):
                best = (i, e)
    return None if best is None else best[0]


GRAPH = import_graph(modules())


def test_the_graph_is_read():
    assert "alpha_py.core.tensor" in GRAPH["alpha_py.nn.unit"]
    assert "alpha_py.zoo.registry" in GRAPH["alpha_py.stat.train_checkpoint"]          # a function-level import


def test_no_import_cycle():
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_one():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(g) == [["a", "b", "c"]]


def test_every_module_has_a_layer_and_imports_only_downwards():
    unplaced = sorted(m for m in GRAPH if layer_of(m) is None)
    assert not unplaced, f"add these modules to LAYERS: {unplaced}"
    upward = sorted(f"{m} -> {t}" for m, ts in GRAPH.items() for t in ts if layer_of(t) > layer_of(m))
    assert not upward, "imports pointing up the layers: " + "; ".join(upward)


def folder_of(module):
    """The sub-folder (package) of alpha_py a module lives in, or None for the modules at alpha_py's top."""
    parts = module.split(".")
    if len(parts) >= 2 and os.path.isdir(os.path.join(REPO, *parts[:2])):
        return ".".join(parts[:2])
    return None


def test_every_folder_is_one_layer():
    spans = {}
    for m in GRAPH:
        if folder_of(m):
            spans.setdefault(folder_of(m), set()).add(layer_of(m))
    mixed = {f: sorted(ls) for f, ls in spans.items() if len(ls) > 1}
    assert not mixed, f"folders spanning several layers (layer indices): {mixed}"


def test_no_folder_level_arrow_runs_up():
    up = sorted({f"{folder_of(m)} -> {folder_of(t)}" for m, ts in GRAPH.items() for t in ts
                 if folder_of(m) and folder_of(t) and folder_of(m) != folder_of(t)
                 and layer_of(t) > layer_of(m)})
    assert not up, "folder imports pointing up the layers: " + "; ".join(up)


def test_the_folder_check_sees_a_mixed_folder():
    assert folder_of("alpha_py.core.tensor") == "alpha_py.core" and folder_of("alpha_py.errors") is None
    assert layer_of("alpha_py.core.tensor") < layer_of("alpha_py.backend.cpu") < layer_of("alpha_py.engine.engine")


def test_nn_never_imports_zoo_functional_or_the_facade():
    for m, ts in GRAPH.items():
        if m.startswith(("alpha_py.nn", "alpha_py.engine", "alpha_py.backend")):
            assert not {t for t in ts if t.startswith(("alpha_py.zoo", "alpha_py.functional", "alpha_py.facade"))}, m


@pytest.mark.parametrize("folder", ["alpha_py", "tests", "bench", "spark_jobs"])
def test_no_python_file_over_the_line_budget(folder):
    long_files = []
    for d, _, files in os.walk(os.path.join(REPO, folder)):
        for f in files:
            if f.endswith(".py"):
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    n = sum(1 for _ in fh)
                if n > MAX_LINES:
                    long_files.append(f"{os.path.relpath(os.path.join(d, f), REPO)}: {n}")
    assert not long_files, f"over {MAX_LINES} lines: {long_files}"


def java_import_graph(root=os.path.join(REPO, "java", "src", "main", "java")):
    """Java class -> the project classes it imports (cross-package references; same-package ones need no import)."""
    graph = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".java"):
                cls = os.path.relpath(os.path.join(d, f), root)[:-5].replace(os.sep, ".")
                with open(os.path.join(d, f), encoding="utf-8") as fh:
                    graph[cls] = {line.split()[1].rstrip(";") for line in fh
                                  if line.startswith("import alpha.") and not line.startswith("import alpha.*")}
    return {c: {t for t in ts if t in graph} for c, ts in graph.items()}


def test_no_java_import_cycle():
    g = java_import_graph()
    assert "alpha.bridge.Handle" in g and "alpha.Scope" in g
    assert cycles(g) == []


def test_pyproject_lists_every_subpackage():
    """A non-editable install ships only the packages pyproject.toml names: a new folder must be listed."""
    import tomllib
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    folders = {name for name, (_, is_pkg) in modules().items() if is_pkg}
    assert folders <= listed, f"add to pyproject.toml's packages: {sorted(folders - listed)}"
