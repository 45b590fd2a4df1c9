"""What every adapter's export path shares (Adapter.export, docs/exporting.md)."""
import hashlib

import numpy as np


def per_signature(export, fn, baked=(), dynamic=False):
    """fn exported on its first call with each input signature, then run by the runtime:
    export(fn, env) -> run(env) is the adapter's export path. The signature is each tensor's
    shape and dtype, and any other value itself (a Python number is a constant of the exported
    program, as users bake one in), so a second shape exports again, as a user's static export
    must; the values of the tensors named in `baked` too (weights an exporter bakes in).

    Where the exporter has dynamic shapes (`dynamic`: export(fn, env, dynamic=True) -> (run,
    accepts), accepts(env) whether that program serves env's shapes), the second shape of a family
    (the same ranks, dtypes and constants) exports once more with its sizes symbolic, and that
    program serves every later shape of the family it accepts, as torch.compile's automatic
    dynamic shapes recompiles once: a family's first shape is a static export, the rest a
    dynamic one, as a user's who serves many shapes (docs/exporting.md). A shape the dynamic
    program does not accept (a size the exporter specialised, such as 1), and every shape of a
    family whose dynamic export failed, exports statically."""
    programs, families = {}, {}

    def run(env):
        key = tuple(_signature(name, value, name in baked) for name, value in sorted(env.items()))
        if key not in programs:
            programs[key] = _served(env, key, families) or _static_or_dynamic(export, fn, env, key, families, dynamic)
        return programs[key](env)
    return run


def _served(env, key, families):
    """The family's dynamic program where it accepts env, else None."""
    family = families.get(_family(key))
    if isinstance(family, tuple) and family[1](env):
        return family[0]
    return None


def _static_or_dynamic(export, fn, env, key, families, dynamic: bool):
    """The program made for env: the family's dynamic export where this is its second shape (and
    it accepts env), else a static one."""
    family = _family(key)
    if dynamic and families.get(family) == "static":
        try:
            run, accepts = export(fn, env, dynamic=True)
            if accepts(env):
                families[family] = (run, accepts)
                return run
        except Exception:  # noqa: BLE001 - the static export below says what is wrong, in its words
            pass
        families[family] = "static only"
    families.setdefault(family, "static")
    return export(fn, env)


def _family(key) -> tuple:
    """A signature without its sizes: each tensor's rank and dtype, every other value itself."""
    return tuple((entry[0], len(entry[1]), *entry[2:]) if len(entry) == 4 else entry for entry in key)


def _signature(name, value, baked: bool) -> tuple:
    if not hasattr(value, "shape"):
        return name, repr(value)
    values = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest() if baked else None
    return name, tuple(value.shape), str(value.dtype), values


def fits(shapes, pattern, bounds) -> bool:
    """Whether inputs of `shapes` fit a dynamic export's input `pattern`: per input a tuple of
    sizes, each an int (a size the exporter kept static), a str (a symbol: any size within
    bounds[symbol] = (low, high), the same wherever it recurs) or a function of the symbols'
    sizes (a size the exporter derived from others)."""
    if len(shapes) != len(pattern) or any(len(s) != len(p) for s, p in zip(shapes, pattern)):
        return False
    sizes, derived = {}, []
    for shape, dims in zip(shapes, pattern):
        for got, want in zip(shape, dims):
            if callable(want):
                derived.append((want, got))
            elif isinstance(want, str):
                if sizes.setdefault(want, got) != got:
                    return False
            elif want != got:
                return False
    if any(not low <= sizes[s] <= high for s, (low, high) in bounds.items() if s in sizes):
        return False
    try:
        return all(want(sizes) == got for want, got in derived)
    except KeyError:  # derived from a symbol no input carries
        return False


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
