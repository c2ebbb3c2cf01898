"""The Cython declarations (``.pxd``) of a compiled module, written at build time from its ``.py``,
so that a class's fields are declared in one place: the ``.py``.

A class of a module of :data:`pipeline._compiled.COMPILED` becomes an extension type where it
is decorated ``@cython.cclass``. Its fields are its ``__slots__`` (in order; ``"__dict__"``
there gives it an instance dict for what a subclass or a caller adds); each is a C field of
type ``list``, ``dict`` or ``set`` when the class annotates it so (``scores: list[int]``), else
``object`` (an extension type named by an annotation is documentation only: a value that is
none of that type still fits, as in the pure module). A method or module function
decorated ``@cython.ccall`` is a ``cpdef`` one, its arguments typed by its ``@cython.locals``
(``@cython.locals(obs=Observation, sh=cython.int)``), its return by ``@cython.returns``; an
extension type named there is cimported from the module the ``.py`` imports it from. The
pure-Python modules import :mod:`pipeline._cython` for these decorators where Cython is not
installed (they do nothing there).

``setup.py`` writes each module's declarations under ``build/pxd/`` (on Cython's include path,
never tracked). A module with no such class or function keeps the hand-written ``.pxd`` beside
it, if any, which holds cimports and ``cpdef`` methods only, never fields.

Like :mod:`pipeline._compiled`, this file imports nothing from the lab: ``setup.py`` runs it
before the package exists.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

GENERATED_HEADER = (
    "# written by pipeline/_pxd.py from {source} at build time: edit the .py instead\n")
CONTAINERS = ("list", "dict", "set")
_CDEF_CLASS = re.compile(r"^cdef class (\w+)", re.MULTILINE)


class DeclarationError(ValueError):
    """A ``.py`` whose declarations cannot be written (the message names the class and the fix)."""


def _is_cython(node: ast.expr, name: str) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return (isinstance(target, ast.Attribute) and target.attr == name
            and isinstance(target.value, ast.Name) and target.value.id == "cython")


def _decorator(node: ast.FunctionDef | ast.ClassDef, name: str) -> ast.expr | None:
    return next((d for d in node.decorator_list if _is_cython(d, name)), None)


def declared_classes(source: Path) -> set[str]:
    """The extension types a compiled module declares: its ``@cython.cclass`` classes, and the
    ``cdef class`` of the hand-written ``.pxd`` beside it."""
    tree = ast.parse(source.read_text(), str(source))
    found = {node.name for node in tree.body
             if isinstance(node, ast.ClassDef) and _decorator(node, "cclass") is not None}
    written = source.with_suffix(".pxd")
    if written.exists():
        found.update(_CDEF_CLASS.findall(written.read_text()))
    return found


def _constants(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """The module's tuples of names (``_WALL_FIELDS = ("order", ...)``), which ``__slots__`` may
    unpack."""
    found: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
                found[node.targets[0].id] = value
    return found


def _slots(cls: ast.ClassDef, constants: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    for node in cls.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "__slots__"):
            value = node.value
            names: list[str] = []
            parts = value.elts if isinstance(value, ast.Tuple | ast.List) else [value]
            for part in parts:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    names.append(part.value)
                elif isinstance(part, ast.Starred | ast.Name):
                    ref = part.value if isinstance(part, ast.Starred) else part
                    if not isinstance(ref, ast.Name) or ref.id not in constants:
                        break
                    names.extend(constants[ref.id])
                else:
                    break
            else:
                return tuple(names)
            raise DeclarationError(f"{cls.name}.__slots__: write it as a tuple of names "
                                   "(or of module-level tuples of names, unpacked)")
    raise DeclarationError(f"{cls.name} is a @cython.cclass without __slots__: name its fields "
                           "there")


def _imports(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Each imported name (TYPE_CHECKING blocks included): its module and its own name."""
    found: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                found[alias.asname or alias.name] = (node.module, alias.name)
    return found


class _Writer:
    """The declarations of one module, with the cimports the types they name need."""

    def __init__(self, module: str, tree: ast.Module,
                 extension_types: dict[str, set[str]]) -> None:
        self.module = module
        self.imports = _imports(tree)
        self.local = {node.name for node in tree.body
                      if isinstance(node, ast.ClassDef) and _decorator(node, "cclass")}
        self.extension_types = extension_types
        self.cimports: set[str] = set()

    def extension_type(self, name: str) -> str | None:
        """The name under which an extension type is known here (cimported), else None."""
        if name in self.local:
            return name
        origin = self.imports.get(name)
        if origin and origin[1] in self.extension_types.get(origin[0], ()):
            module, own = origin
            self.cimports.add(f"from {module} cimport {own}"
                              + (f" as {name}" if own != name else ""))
            return name
        return None

    def c_type(self, node: ast.expr | None, *, field: bool = False) -> str:
        """The C type a field's annotation or a ``cython.locals`` entry gives."""
        if node is None:
            return "object"
        if isinstance(node, ast.Subscript):  # list[int]: a list
            node = node.value
        if isinstance(node, ast.Attribute) and _is_cython(node, node.attr) and not field:
            return node.attr
        if isinstance(node, ast.Name):
            if node.id in CONTAINERS or (node.id == "tuple" and not field):
                return node.id
            if node.id == "object" or field:  # a field holds any value its annotation allows
                return "object"
            known = self.extension_type(node.id)
            if known:
                return known
        return "object"

    def function(self, node: ast.FunctionDef, indent: str) -> list[str]:
        """The ``cpdef`` line (and its ``@cython.locals``) of a ``@cython.ccall`` function."""
        local_types: dict[str, ast.expr] = {}
        locals_call = _decorator(node, "locals")
        if isinstance(locals_call, ast.Call):
            local_types = {k.arg: k.value for k in locals_call.keywords if k.arg}
        returns = _decorator(node, "returns")
        result = self.c_type(returns.args[0]) if isinstance(returns, ast.Call) else "object"
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise DeclarationError(f"{node.name}: a @cython.ccall function takes plain "
                                   "positional-or-keyword arguments only (Cython's cpdef)")
        first_default = len(args.args) - len(args.defaults)
        params = []
        for i, arg in enumerate(args.args):
            if arg.arg == "self" and i == 0 and indent:
                params.append("self")
                continue
            typed = self.c_type(local_types.pop(arg.arg, None))
            params.append(f"{typed} {arg.arg}" + ("=*" if i >= first_default else ""))
        lines = []
        if local_types:
            shown = ", ".join(f"{k}={self._local(v)}" for k, v in local_types.items())
            lines.append(f"{indent}@cython.locals({shown})")
        lines.append(f"{indent}cpdef {result} {node.name}({', '.join(params)})")
        return lines

    def _local(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            self.c_type(node)  # cimports the type it names
        return ast.unparse(node)

    def cclass(self, node: ast.ClassDef, constants: dict[str, tuple[str, ...]]) -> list[str]:
        bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
        if len(bases) != len(node.bases) or len(bases) > 1:
            raise DeclarationError(f"{node.name}: a @cython.cclass has at most one base, named")
        base = ""
        if bases:
            known = self.extension_type(bases[0])
            if not known:
                raise DeclarationError(f"{node.name}: its base {bases[0]} is no extension type "
                                       "of a compiled module (decorate it @cython.cclass)")
            base = f"({known})"
        annotations = {n.target.id: n.annotation for n in node.body
                       if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
        lines = [f"cdef class {node.name}{base}:"]
        for name in _slots(node, constants):
            if name == "__dict__":
                lines.append("    cdef dict __dict__")
            elif name != "__weakref__":
                lines.append(f"    cdef public {self.c_type(annotations.get(name), field=True)} "
                             f"{name}")
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and _decorator(item, "ccall") is not None:
                lines.extend(self.function(item, "    "))
        if len(lines) == 1:
            lines.append("    pass")
        return lines


def declarations(module: str, source: Path, extension_types: dict[str, set[str]]) -> str | None:
    """The ``.pxd`` text of ``module`` (its ``.py`` at ``source``), or None when it declares no
    extension type and no ``cpdef`` function. ``extension_types`` holds each compiled module's
    (:func:`declared_classes`), for the cimports."""
    tree = ast.parse(source.read_text(), str(source))
    writer = _Writer(module, tree, extension_types)
    constants = _constants(tree)
    body: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and _decorator(node, "cclass") is not None:
            body += ["", *writer.cclass(node, constants)]
        elif isinstance(node, ast.FunctionDef) and _decorator(node, "ccall") is not None:
            body += ["", *writer.function(node, "")]
    if not body:
        return None
    if source.with_suffix(".pxd").exists():
        raise DeclarationError(f"{source.with_suffix('.pxd')}: its declarations are written "
                               f"from {source.name}; delete the hand-written one")
    head = [GENERATED_HEADER.format(source=source.as_posix()).rstrip("\n"), "cimport cython",
            *sorted(writer.cimports)]
    return "\n".join(head + body) + "\n"


def write_all(modules: tuple[str, ...], root: Path, out: Path) -> list[Path]:
    """Writes the declarations of every module that has some under ``out`` (a file is rewritten
    only when its text changes, so that Cython rebuilds only what depends on it); returns the
    files written or kept. Stale files of modules with none any more are removed."""
    sources = {name: root.joinpath(*name.split(".")).with_suffix(".py") for name in modules}
    extension_types = {name: declared_classes(path) for name, path in sources.items()}
    kept: list[Path] = []
    for name, source in sources.items():
        path = out.joinpath(*name.split(".")).with_suffix(".pxd")
        text = declarations(name, source, extension_types)
        if text is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        kept.append(path)
    return kept
