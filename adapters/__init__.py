"""The adapter registry: built-ins, the `parity.adapters` entry-point group, and local files.

    adapters.names()          registered adapter names
    adapters.get("torch")     a ready adapter (AdapterError if unknown or not installed)
    adapters.load_path(FILE)  register every Adapter subclass defined in FILE (--adapter-path)
"""
import importlib
import importlib.metadata
import importlib.util
import pathlib
import sys

from adapters.base import Adapter, Unsupported

__all__ = ["Adapter", "AdapterError", "Unsupported", "check_known", "get", "import_first", "installed", "load_path",
           "names", "register"]

# name -> "module:Class"; the modules import their framework only when an adapter is created.
BUILTIN = {
    "reference": "adapters.reference:ReferenceAdapter",
    "torch": "adapters.torch:TorchAdapter",
    "jax": "adapters.jax:JaxAdapter",
    "tensorflow": "adapters.tensorflow:TensorFlowAdapter",
    "tensorflow-litert": "adapters.tensorflow.litert:LiteRTAdapter",  # the exported mode alone
    "tensorflow-litert-float16": "adapters.tensorflow.litert_float16:LiteRTFloat16Adapter",  # the models alone
    "tensorflow-litert-int8": "adapters.tensorflow.litert_int8:LiteRTInt8Adapter",  # the models alone
    "torch-onnx-float16": "adapters.torch.float16:OnnxFloat16Adapter",  # the exported mode alone
    "torch-export": "adapters.torch.exported_program:ExportedProgramAdapter",  # the exported mode alone
    "engine": "adapters.engine:EngineAdapter",
    "keras": "adapters.keras:KerasAdapter",  # registered as keras-<backend> (KERAS_BACKEND)
    "paddle": "adapters.paddle:PaddleAdapter",
}
# How to install each built-in framework, for the "not installed" message.
INSTALL = {name: f"pip install -r requirements/{name}.txt"
           for name in ("torch", "jax", "tensorflow", "keras", "paddle")} | {
    "tensorflow-litert": "pip install -r requirements/tensorflow.txt",
    "tensorflow-litert-float16": "pip install -r requirements/tensorflow.txt",
    "tensorflow-litert-int8": "pip install -r requirements/tensorflow.txt",
    "torch-onnx-float16": "pip install -r requirements/torch.txt",
    "torch-export": "pip install -r requirements/torch.txt"}

_classes: dict[str, type] = {}
_instances: dict[str, Adapter] = {}
_loaded = False


class AdapterError(Exception):
    """An adapter cannot be had: unknown name, framework not installed, bad adapter file."""


def register(cls: type) -> type:
    if not (isinstance(cls, type) and issubclass(cls, Adapter) and cls.name):
        raise AdapterError(f"an adapter is an Adapter subclass with a `name`. Received: {cls!r}")
    _classes[cls.name] = cls
    _instances.pop(cls.name, None)
    return cls


def _load_builtins() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for target in BUILTIN.values():
        module, cls = target.split(":")
        register(getattr(importlib.import_module(module), cls))
    for ep in importlib.metadata.entry_points(group="parity.adapters"):
        register(ep.load())


def load_path(path) -> list[str]:
    """Import FILE.py and register every Adapter subclass it defines; returns their names."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise AdapterError(f"--adapter-path: no such file. Received: {str(path)!r}")
    _load_builtins()
    spec = importlib.util.spec_from_file_location(f"parity_adapter_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its classes know their file (inspect, shipped differences)
    spec.loader.exec_module(module)
    found = [obj for obj in vars(module).values()
             if isinstance(obj, type) and issubclass(obj, Adapter) and obj.__module__ == module.__name__]
    if not found:
        raise AdapterError(f"--adapter-path: {path} defines no Adapter subclass")
    _check_names(path, found)
    return [register(cls).name for cls in found]


def _origin(cls: type) -> tuple:
    """Where a class is written: its file and qualified name (the same file loaded twice, the same)."""
    return getattr(sys.modules.get(cls.__module__), "__file__", cls.__module__), cls.__qualname__


def _check_names(path, found: list) -> None:
    """Refuse, before registering any, a class whose name another adapter has: a helper class that
    inherits a built-in's `name` would replace that adapter (and its shipped differences)."""
    seen = {name: _origin(cls) for name, cls in _classes.items()}
    for cls in found:
        other = seen.setdefault(cls.name, _origin(cls))
        if other != _origin(cls):
            raise AdapterError(f"--adapter-path: {path}: {cls.__qualname__}'s name {cls.name!r} is already "
                               f"{other[1]}'s ({other[0]}); give {cls.__qualname__} a `name` of its own")


def names() -> list[str]:
    _load_builtins()
    return list(_classes)


def installed() -> list[str]:
    """Registered adapters whose framework is installed."""
    return [name for name in names() if _classes[name].available()]


def check_known(name: str) -> None:
    """AdapterError naming the known adapters, for a name that is not one of them."""
    if name not in names():
        raise AdapterError(f"unknown adapter {name!r}; known adapters: {', '.join(_classes)} "
                           "(load another with --adapter-path FILE.py)")


def check_installed(name: str) -> None:
    """AdapterError with the install hint, for an adapter whose framework is missing."""
    check_known(name)
    cls = _classes[name]
    if not cls.available():
        hint = INSTALL.get(name) or INSTALL.get(cls.module, f"install {cls.module}")
        raise AdapterError(f"adapter {name!r} needs {cls.module}, which is not installed ({hint}; "
                           f"or leave it out of --adapter)")


def get(name: str) -> Adapter:
    check_installed(name)
    cls = _classes[name]
    if name not in _instances:
        _instances[name] = cls()
    return _instances[name]


def import_first(chosen: list) -> None:
    """Import the frameworks of the chosen adapters that must be loaded before any other in a
    process (`import_first`: PaddlePaddle after TensorFlow dies), before any adapter is made."""
    for name in chosen:
        cls = _classes.get(name)
        if cls is not None and cls.import_first and cls.available():
            importlib.import_module(cls.module)


def classes() -> dict[str, type]:
    """The registered adapter classes whose framework is installed, by name (none is made)."""
    return {name: _classes[name] for name in installed()}


def loaded() -> list[str]:
    """The adapters this process has made ready (their frameworks are imported)."""
    return sorted(_instances)
