"""What every adapter's export path shares (Adapter.export, docs/exporting.md)."""
import hashlib

import numpy as np


def per_signature(export, fn, baked=()):
    """fn exported on its first call with each input signature, then run by the runtime:
    export(fn, env) -> run(env) is the adapter's export path. The signature is each tensor's
    shape and dtype, and any other value itself (a Python number is a constant of the exported
    program, as users bake one in), so a second shape exports again, as a user's static export
    must; the values of the tensors named in `baked` too (weights an exporter bakes in)."""
    programs = {}

    def run(env):
        key = tuple(_signature(name, value, name in baked) for name, value in sorted(env.items()))
        if key not in programs:
            programs[key] = export(fn, env)
        return programs[key](env)
    return run


def _signature(name, value, baked: bool) -> tuple:
    if not hasattr(value, "shape"):
        return name, repr(value)
    values = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest() if baked else None
    return name, tuple(value.shape), str(value.dtype), values


def positional(fn, env, is_tensor, baked=(), constant=None):
    """(names, program): the names of env's tensors, in order, and fn as a program that takes
    those tensors positionally, as an exporter traces one, with env's other values (Python
    numbers) constants of it, as users bake one in; and the tensors named in `baked` too, as
    constant(value) makes one where the program is traced (a trained model's weights)."""
    names = [k for k, v in env.items() if is_tensor(v) and k not in baked]
    constants = {k: v for k, v in env.items() if k not in names and k not in baked}
    weights = {k: env[k] for k in baked if k in env}
    return names, lambda *tensors: fn({**constants, **{k: constant(v) for k, v in weights.items()},
                                       **dict(zip(names, tensors))})


def refusal(exc) -> str:
    """An MLIR-based converter's or runtime's own reason (its `error:` lines, without the MLIR
    locations before them: LiteRT's converter, TensorFlow's XlaCallModule), or the exception's
    first line."""
    text = str(exc)
    reasons = [line.rsplit("error: ", 1)[1] for line in text.splitlines() if "error: " in line]
    return "; ".join(dict.fromkeys(reasons)) or (text.splitlines() or [""])[0]
