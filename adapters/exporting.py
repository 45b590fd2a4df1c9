"""What every adapter's export path shares (Adapter.export, docs/exporting.md)."""


def per_signature(export, fn):
    """fn exported on its first call with each input signature, then run by the runtime:
    export(fn, env) -> run(env) is the adapter's export path. The signature is each tensor's
    shape and dtype, and any other value itself (a Python number is a constant of the exported
    program, as users bake one in), so a second shape exports again, as a user's static export must."""
    programs = {}

    def run(env):
        key = tuple((name, tuple(value.shape), str(value.dtype)) if hasattr(value, "shape") else (name, repr(value))
                    for name, value in sorted(env.items()))
        if key not in programs:
            programs[key] = export(fn, env)
        return programs[key](env)
    return run


def positional(fn, env, is_tensor):
    """(names, program): the names of env's tensors, in order, and fn as a program that takes
    those tensors positionally, as an exporter traces one, with env's other values (Python
    numbers) constants of it, as users bake one in."""
    names = [k for k, v in env.items() if is_tensor(v)]
    constants = {k: v for k, v in env.items() if k not in names}
    return names, lambda *tensors: fn({**constants, **dict(zip(names, tensors))})


def refusal(exc) -> str:
    """An MLIR-based converter's or runtime's own reason (its `error:` lines, without the MLIR
    locations before them: LiteRT's converter, TensorFlow's XlaCallModule), or the exception's
    first line."""
    text = str(exc)
    reasons = [line.rsplit("error: ", 1)[1] for line in text.splitlines() if "error: " in line]
    return "; ".join(dict.fromkeys(reasons)) or (text.splitlines() or [""])[0]
